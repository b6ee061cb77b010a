import Testing

@testable import DashModel
@testable import CoreValues

/// An upgrade right after billing recovered in grace refunds the unused part of the period, not
/// its full price: the period kept its renewal date, so the grace days were already used.
@Suite("Actions: upgrade after a recovery in grace")
struct ActionsUpgradeAfterGraceTests {
  @Test func theRefundIsTheUnusedPartOfThePeriodThatKeptItsDate() throws {
    var sim = Sim(start: "2026-01-10T08:00:00Z", settings: [
      ("gracePeriod", .int(16)), ("renewalOutcomes", .array([.string("ok"), .string("fail")])),
    ])
    sim.buy("pass.basic.monthly")
    sim.next()  // Feb 10 renews
    sim.next()  // Mar 10 fails: grace
    sim.advance(by: .days(5))
    sim.run(.resolveBillingIssue)  // Mar 15, period Mar 10 – Apr 10 kept
    #expect(sim.latest.expiresDate == Sim.at("2026-04-10T08:00:00Z"))
    let timing = try Simulator.rules(sim.state).rate
    guard case .success(let preview) = Actions.preview(.upgrade(toProductId: "pass.premium.monthly"), in: sim.state, at: sim.now, timing: timing) else {
      Issue.record("the upgrade was refused")
      return
    }
    // 26 of 31 days unused: 4.99 × 26/31 = 4.185… → 4.19 USD, not 4.99.
    #expect(preview.refundMilli == 4190)
  }
}
