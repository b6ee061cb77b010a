import Testing

@testable import DashModel
@testable import CoreValues

/// recentSubscriptionStartDate ignores lapses of paid service shorter than 60 days (Apple), one
/// rule for the simulator's purchases and the actions' resubscriptions, at every time rate.
@Suite("recentSubscriptionStartDate")
struct RecentSubscriptionStartTests {
  let seriesStart = Instant(ms: 1_700_000_000_000)
  let ended = Instant(ms: 1_710_000_000_000)

  func previous(revokedAt revoked: Instant? = nil) -> TransactionPayload {
    var t = TransactionPayload()
    t.purchaseDate = seriesStart
    t.expiresDate = ended
    t.revocationDate = revoked
    return t
  }

  @Test func aLapseShorterThanSixtyDaysKeepsTheSeries() {
    let limit = ended + .days(60)
    #expect(RecentSubscriptionStart.after(previous(), seriesStart: seriesStart, at: limit - .millisecond) == seriesStart)
    #expect(RecentSubscriptionStart.after(previous(), seriesStart: seriesStart, at: limit) == limit)
  }

  @Test func paidServiceEndsAtARevocation() {
    let revoked = ended - .days(20)
    let limit = revoked + .days(60)
    #expect(RecentSubscriptionStart.after(previous(revokedAt: revoked), seriesStart: seriesStart, at: limit - .millisecond) == seriesStart)
    #expect(RecentSubscriptionStart.after(previous(revokedAt: revoked), seriesStart: seriesStart, at: limit) == limit)
  }

  @Test func aFirstPurchaseOrAMissingSeriesStartsNow() {
    let now = ended + .days(1)
    #expect(RecentSubscriptionStart.after(nil, seriesStart: seriesStart, at: now) == now)
    #expect(RecentSubscriptionStart.after(previous(), seriesStart: nil, at: now) == now)
  }
}
