import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// How the offer in effect and the queued offer read: the offer's own noun once, its length the
/// way the other offer texts say it ("3 × 1 month"), and a count of periods only while some are
/// left.
@Suite("Lifecycle: offer texts")
struct LifecycleOfferTextTests {
  func report(_ sim: Sim) -> LifecycleReport { Lifecycle.derive(sim.state, at: sim.now) }

  /// A customer who lapsed in April and is offered win-back offers in June (pass.storekit).
  func lapsedCustomer() -> Sim {
    var sim = Sim(start: "2026-01-05T10:00:00Z")
    sim.buy("pass.premium.monthly")
    sim.advance(to: "2026-03-06T00:00:00Z")
    sim.plan(.setAutoRenew(false))
    sim.advance(to: "2026-06-05T10:00:00Z")
    return sim
  }

  @Test func anOfferCodeInEffectNamesItsPeriodsOnce() throws {
    let state = try StateFile.load(path: ExamplesTests.directory.appendingPathComponent("offer-in-effect.json").path)
    let r = Lifecycle.derive(state, at: try Simulator.clock(state))
    // The catalog's code is 3 × P1M pay as you go; the transaction's offerPeriod is the whole P3M.
    #expect(r.offerInEffect?.text == "offer code Spring 2026 (pay as you go, 3 × 1 month, 1 period left)")
    #expect(r.offerInEffect?.period == "P3M")  // the App Store field itself is kept as it is
    #expect(r.offerQueued?.text == "offer code Spring 2026 (pay as you go, 3 × 1 month)")
    for text in [r.offerInEffect?.text, r.offerQueued?.text].compactMap({ $0 }) {
      #expect(!text.contains("offer offer"))
      #expect(!text.contains("P3M"))
    }
  }

  @Test func aSinglePeriodWinBackOfferShowsNoCount() {
    var sim = lapsedCustomer()
    sim.plan(.acceptWinBack(offerId: "premium.winback.free"))
    #expect(sim.state.subscriber.offerPeriodsRemaining == 0)
    #expect(report(sim).offerInEffect?.text == "win-back offer One month free (free trial, 1 month)")
  }

  @Test func aPayAsYouGoWinBackOfferCountsDownToItsLastPeriod() {
    var sim = lapsedCustomer()
    sim.plan(.acceptWinBack(offerId: "premium.winback.half"))
    #expect(report(sim).offerInEffect?.text == "win-back offer Half price for 3 months (pay as you go, 3 × 1 month, 2 periods left)")
    sim.next()  // the second period
    #expect(report(sim).offerInEffect?.text == "win-back offer Half price for 3 months (pay as you go, 3 × 1 month, 1 period left)")
    sim.next()  // the third and last
    #expect(report(sim).offerInEffect?.text == "win-back offer Half price for 3 months (pay as you go, 3 × 1 month, last period)")
    sim.next()  // regular price again
    #expect(report(sim).offerInEffect == nil)
  }

  @Test func anOfferTheCatalogDoesNotKnowIsNamedByItsDuration() throws {
    typealias F = LifecycleFixture
    let t = F.transaction(#""offerType": 3, "offerIdentifier": "Old Code", "offerDiscountType": "PAY_AS_YOU_GO", "offerPeriod": "P3M""#)
    let r = try F.report(F.subscriber(transaction: t) + #", "offerPeriodsRemaining": 0"#, at: "2026-04-15 00:00")
    #expect(r.offerInEffect?.text == "offer code Old Code (pay as you go, 3 months)")
  }

  /// A purchase's event summary names the offer's length in words; the payload keeps ISO 8601.
  @Test func aPurchaseWithAnIntroOfferSaysItsLengthInWords() throws {
    var sim = Sim()
    sim.buy("pass.premium.monthly", intro: true)
    let summary = try #require(sim.log.first?.summary)
    #expect(summary.contains("(free trial, 1 week)"), "\(summary)")
    #expect(!summary.contains("P1W"), "\(summary)")
    #expect(sim.state.subscriber.latestTransaction?.offerPeriod == "P1W")
  }
}
