import Testing

@testable import DashModel
@testable import CoreValues

/// `F` follows Apple: a refund returns a charge, so a free trial has none, and the status line
/// says what was refunded (not the AUTO_RENEW_DISABLED that precedes the REFUND).
@Suite("Simulator refunds")
struct SimulationRefundTests {
  @Test func aFreeTrialCannotBeRefunded() {
    var sim = Sim()
    sim.buy("pass.premium.monthly", intro: true)
    #expect(sim.latest.offerDiscountType == .freeTrial)
    let before = sim.state.subscriber
    #expect(sim.refusal(.refund) == .simulator(.nothingCharged(product: "Premium Monthly")))
    #expect(sim.state.subscriber == before)
  }

  @Test func aPaidPeriodRefundIsWhatTheStatusLineSays() throws {
    var sim = Sim()
    sim.buy("pass.premium.monthly")
    guard case .success(let change) = Simulator.apply(.refund, to: sim.state, at: sim.now) else {
      Issue.record("the refund was refused")
      return
    }
    #expect(change.message.hasPrefix("Refunded 9.99 USD"))
    #expect(change.notifications.map(\.notificationType) == [.didChangeRenewalStatus, .refund])
  }

  /// Apple's revocationPercentage page: "present … for refunded transactions", 100 % is 100000; a
  /// reversed refund carries none.
  @Test func aFullRefundSaysOneHundredPercentAndAReversalRemovesIt() {
    var sim = Sim()
    sim.buy("pass.premium.monthly")
    sim.run(.refund)
    #expect(sim.latest.revocationType == .refundFull)
    #expect(sim.latest.revocationPercentage == 100_000)
    sim.run(.reverseRefund)
    #expect(sim.latest.revocationPercentage == nil)
    #expect(sim.latest.revocationType == nil)
  }
}
