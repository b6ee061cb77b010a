import CoreValues
/// Apple's `renewalInfo.recentSubscriptionStartDate`: "the earliest start date of a subscription
/// in a series of auto-renewable subscription purchases that ignores all lapses of paid service
/// shorter than 60 days" (developer.apple.com/documentation/appstoreserverapi/recentsubscriptionstartdate).
/// One rule for every path that starts a subscription (the simulator's purchases, the actions'
/// offer codes and win-back offers), so they cannot disagree. The 60 days are real days at every
/// time rate: Apple documents how StoreKit testing shortens periods, grace and billing retry,
/// never this series rule (the same choice as win-back's months, docs/simulation.md).
public enum RecentSubscriptionStart {
  public static let lapseForgiven = Span.days(60)

  /// The series start for a subscription starting at `now` after `previous` (nil: never
  /// subscribed). Paid service ended at the previous transaction's revocation, else its expiry;
  /// a lapse shorter than 60 days keeps `seriesStart`, anything else starts a new series now.
  public static func after(_ previous: TransactionPayload?, seriesStart: Instant?, at now: Instant) -> Instant {
    guard let seriesStart, let p = previous, let ended = p.revocationDate ?? p.expiresDate,
          now - ended < lapseForgiven else { return now }
    return seriesStart
  }
}
