/// Upgrade: to a higher level (a lower `groupNumber`) in the same group, immediately.
enum Upgrade {
  static func outcome(to id: String, _ ctx: ActionContext) throws(ActionError) -> Outcome {
    if let keep = try CancelPendingChange.ifCurrent(id, ctx) { return keep }
    let current = try ctx.requireSubscription()
    let target = try ctx.target(id, in: current.group)
    guard current.group.subscriptions.contains(where: { $0.level < current.product.level }) else { throw .alreadyTopLevel }
    guard target.level < current.product.level else { throw .notHigherLevel(productId: id) }
    return try SwitchNow(target: target, offer: nil, notificationType: .didChangeRenewalPref, verb: "Upgrade").outcome(ctx)
  }
}
