@testable import DashModel
@testable import DashView

/// A small stand-in for `Actions.preview` (branch model-actions, not merged yet) that follows
/// Apple's rules closely enough to drive the UI: upgrades are immediate with a refund, downgrades
/// wait for the renewal, crossgrades depend on the duration. Replace with the real function once
/// that branch is merged.
enum StandInActions {
  static func advisor(_ state: SubscriptionState, _ report: LifecycleReport) -> ActionAdvisor {
    ActionAdvisor.catalog(state, report: report) { preview($0, state, report) }
  }

  static func preview(_ action: PlanAction, _ state: SubscriptionState, _ report: LifecycleReport) -> Result<ActionPreview, ActionError> {
    let now = report.now
    let current = report.product
    let expires = state.subscriber.latestTransaction?.expiresDate ?? now
    let isLive = report.status == .active || report.status == .billingGracePeriod
    func product(_ id: String) -> SubscriptionProduct? { state.catalog.product(id) }
    func date(_ i: Instant) -> String { TimeText.date(i) }
    switch action {
    case .upgrade(let id), .downgrade(let id), .crossgrade(let id):
      if report.status == .revoked { return .failure(.revoked) }
      guard let current else { return .failure(.noSubscription) }
      guard isLive else { return .failure(.notActive(report.status?.description ?? "never subscribed")) }
      guard let target = product(id) else { return .failure(.unknownProduct(id)) }
      if case .upgrade = action {
        let ends = Instant(ms: now.ms + (target.period == "P1Y" ? 365 : 30) * 86_400_000)
        return .success(ActionPreview(summary: "Upgrade now to \(target.displayName): refund 3.21 USD for unused time; new period ends \(date(ends)).", effectiveDate: now, refundMilli: 3_210))
      }
      if case .crossgrade = action, target.period == current.period {
        return .success(ActionPreview(summary: "Crossgrade now to \(target.displayName).", effectiveDate: now))
      }
      let verb = action == .downgrade(toProductId: id) ? "Downgrade" : "Crossgrade"
      return .success(ActionPreview(summary: "\(verb) to \(target.displayName) on \(date(expires)); \(current.displayName) continues until then.", effectiveDate: expires))
    case .redeemOfferCode(let code):
      guard code.uppercased() == "SPRING2026" else { return .failure(.unknownCode(code)) }
      return .success(ActionPreview(summary: "Redeem SPRING2026: Premium Monthly at 4.99 USD / 1 month for 3 months, starting now.", effectiveDate: now))
    case .acceptWinBack(let id):
      guard let offer = report.winBack.eligible.first(where: { $0.offerId == id }) else { return .failure(.unknownWinBack(id)) }
      return .success(ActionPreview(summary: "Accept \(offer.referenceName): subscription restarts now.", effectiveDate: now))
    case .setAutoRenew(let on):
      if !on { return .success(ActionPreview(summary: "Turn auto-renew off: access continues until \(date(expires)), then the subscription expires.", effectiveDate: now)) }
      return .success(ActionPreview(summary: "Turn auto-renew on: renews on \(date(expires)).", effectiveDate: now))
    }
  }
}
