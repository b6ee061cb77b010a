/// Downgrade: to a lower level (a higher `groupNumber`) in the same group, at the next renewal.
enum Downgrade {
  static func outcome(to id: String, _ ctx: ActionContext) throws(ActionError) -> Outcome {
    if let keep = try CancelPendingChange.ifCurrent(id, ctx) { return keep }
    let current = try ctx.requireSubscription()
    let target = try ctx.target(id, in: current.group)
    guard current.group.subscriptions.contains(where: { $0.level > current.product.level }) else { throw .alreadyBottomLevel }
    guard target.level > current.product.level else { throw .notLowerLevel(productId: id) }
    return try SwitchAtRenewal(target: target, offer: nil, notificationType: .didChangeRenewalPref, verb: "Downgrade").outcome(ctx)
  }
}
