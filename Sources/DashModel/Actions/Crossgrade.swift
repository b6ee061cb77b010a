/// Crossgrade: to another product at the same level. Apple: "If the subscriptions are the same
/// duration, the new subscription begins immediately. If the durations are different, the new
/// subscription goes into effect at the next renewal date."
///
/// Subtypes, from Apple's subtype page (appstoreservernotifications/subtype; appstore-server-api.md
/// §8.1 corrects storekit-reference §2.2, which called this unverified): UPGRADE covers a
/// customer who "cross-graded to a subscription with the same duration" (immediate), DOWNGRADE
/// one who "cross-graded to a subscription with a different duration" (at the next renewal).
enum Crossgrade {
  static func outcome(to id: String, _ ctx: ActionContext) throws(ActionError) -> Outcome {
    if let keep = try CancelPendingChange.ifCurrent(id, ctx) { return keep }
    let current = try ctx.requireSubscription()
    let target = try ctx.target(id, in: current.group)
    let level = current.product.level
    guard current.group.subscriptions.contains(where: { $0.level == level && $0.productID != current.product.productID }) else {
      throw .noCrossgradeTarget
    }
    guard target.level == level else { throw .notSameLevel(productId: id) }
    // Inside a commitment a crossgrade waits for its end (inferred; see CommitmentPlanChanges).
    if try sameDuration(current.product, target, ctx), CommitmentPlanChanges.midCommitment(ctx) == nil {
      return try SwitchNow(target: target, offer: nil, notificationType: .didChangeRenewalPref, verb: "Crossgrade").outcome(ctx)
    }
    return try SwitchAtRenewal(target: target, offer: nil, notificationType: .didChangeRenewalPref, verb: "Crossgrade").outcome(ctx)
  }

  /// P1Y and P12M, or P1W and P7D, are the same duration.
  static func sameDuration(_ a: SubscriptionProduct, _ b: SubscriptionProduct, _ ctx: ActionContext) throws(ActionError) -> Bool {
    let p = try ctx.period(a.period, of: a.productID), q = try ctx.period(b.period, of: b.productID)
    return p.years * 12 + p.months == q.years * 12 + q.months && p.weeks * 7 + p.days == q.weeks * 7 + q.days
  }
}
