import Testing
@testable import DashModel
@testable import CoreValues

/// `offerPeriodsRemaining` comes from the file: a hand-edited huge value must not trap the
/// simulator when it continues an offer the catalog no longer has (it counts `remaining + 1`).
@Suite struct OfferPeriodsRemainingBoundTests {
  @Test func aHugeRemainingCountFromTheFileRenewsWithoutATrap() {
    var sim = Sim()
    sim.buy("pass.premium.monthly")
    sim.state.subscriber.latestTransaction?.offerType = .introductory
    sim.state.subscriber.latestTransaction?.offerIdentifier = "no-longer-in-the-catalog"
    sim.state.subscriber.offerPeriodsRemaining = Int.max
    sim.next()
    #expect(sim.labels.last == "DID_RENEW")
    #expect(sim.latest.offerType == .introductory)
  }
}
