import CoreValues
/// What the dashboard's keys would do to a 12-month commitment, for the `a` key's direction and
/// `show --json`'s `commitment.keys`. Each text is the preview the dashboard shows before the key
/// acts (`Actions.preview`), so the two never disagree.
public enum CommitmentKeys {
  /// What the `a` key toggles. Before a commitment's last payment the renewal info's own
  /// auto-renew status stays on after a cancellation (Apple's life-cycle page), so the key
  /// follows the commitment's status there; elsewhere the plain one.
  public static func autoRenewIsOn(_ s: SubscriptionState, at now: Instant) -> Bool {
    let ctx = ActionContext(state: s, now: now, timing: TimeRate.realTime)
    if CommitmentPlanChanges.midCommitment(ctx) != nil {
      return s.subscriber.renewalInfo?.commitmentInfo?.commitmentAutoRenewStatus != .off
    }
    return s.subscriber.renewalInfo?.autoRenewOn ?? false
  }

  /// `{"a": …, "plans": [{"key", "productId", "preview" | "refused"}]}` while the latest
  /// transaction is a commitment payment, else nil.
  public static func json(_ s: SubscriptionState, at now: Instant, timing: any RenewalTiming) -> JSON? {
    guard let t = s.subscriber.latestTransaction, t.billingPlanType == .monthly, t.commitmentInfo != nil else { return nil }
    func entry(_ a: PlanAction) -> [(String, JSON)] {
      switch Actions.preview(a, in: s, at: now, timing: timing) {
      case .success(let p): return [("preview", .string(p.summary)), ("effectiveDate", .double(p.effectiveDate.ms))]
      case .failure(let e): return [("refused", .string(e.message))]
      }
    }
    var o = JSONObject()
    o["a"] = .object(JSONObject(entry(.setAutoRenew(!autoRenewIsOn(s, at: now)))))
    var plans: [JSON] = []
    if let current = s.catalog.product(t.productId), let group = s.catalog.group(of: t.productId) {
      for p in group.tiers where p.productID != current.productID {
        let (key, action): (String, PlanAction) =
          p.level < current.level ? ("u", .upgrade(toProductId: p.productID))
          : p.level > current.level ? ("d", .downgrade(toProductId: p.productID))
          : ("c", .crossgrade(toProductId: p.productID))
        plans.append(.object(JSONObject([("key", .string(key)), ("productId", .string(p.productID))] + entry(action))))
      }
    }
    o["plans"] = .array(plans)
    return .object(o)
  }
}
