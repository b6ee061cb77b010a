import DashModel
import CoreValues

/// The plan panel's line for a renewal-date extension that moved the current period's expiry
/// (App Store Server API extension, `simulation.renewalExtensions`). Once the period renews the
/// line goes: the extension was for that period only.
enum ExtensionText {
  static func line(_ state: SubscriptionState, now: Instant, compact: Bool) -> String? {
    guard let e = (try? Simulator.settings(state))?.renewalExtensions.last,
          let expires = state.subscriber.latestTransaction?.expiresDate, e.effectiveDate == expires else { return nil }
    return "extended \(counted(e.days, "day")) (\(e.reason)) on \(PlanText.date(e.date, compact: compact, now: now));"
      + " was \(PlanText.date(e.previousExpiresDate, compact: compact, now: now))"
  }
}
