import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// Found by fuzzing: a lapsed subscriber with win-back offers made every simulator step spin to
/// its 100,000-event safety stop (over a second of work per key press), because an applied
/// eligibility change was found again at the same instant.
@Suite("Simulator: event loop")
struct SimulatorEventLoopTests {
  static func lapsed() throws -> SubscriptionState {
    try StateFile.load(path: ExamplesTests.directory.appendingPathComponent("expired-voluntary.json").path)
  }

  @Test func theNextWinBackEligibilityChangeIsAppliedOnce() throws {
    let state = try Self.lapsed()
    var ctx = try SimContext(state)
    let next = try #require(ctx.pendingEvents().first)
    #expect(next.kind == .winBackEligibility)
    #expect(ctx.run(until: next.date) == 1)
    #expect(ctx.pendingEvents().allSatisfy { $0.date > next.date })
  }

  @Test func advancingAYearAppliesEachEligibilityChangeOnce() throws {
    var state = try Self.lapsed()
    let end = try Simulator.clock(state) + .days(365)
    var steps = 0
    while let next = try Simulator.nextEvent(state), next.date <= end, steps < 50 {
      state = try Simulator.advanceToNextEvent(state).state
      steps += 1
    }
    #expect(steps < 50)
    #expect(try Simulator.clock(state) <= end)
  }

  /// Found by fuzzing (a 16-second step before the simulator's "expired periods never renew
  /// late" rule): an expiresDate in 2026 with the clock in 2082. No command may work through
  /// half a century of renewals one at a time.
  @Test func aPeriodThatEndedDecadesBeforeTheClockIsNotRenewedAllTheWayUp() throws {
    let bytes = Fixture.bytes("fuzz/expires-56-years-before-now.json")
    let state = try StateFile.decode(bytes, fileName: "fuzz.json") { (_) throws(StateFileError) in
      throw StateFileError(file: "fuzz.json", message: "no catalog file")
    }
    let now = try Simulator.clock(state)
    let commands: [SimCommand] = [
      .advanceToNextEvent, .advance(.days(1)), .failNextRenewal, .resolveBillingIssue, .expireNow, .refund,
      .requestPriceIncrease, .consentPriceIncrease, .declinePriceIncrease, .approveAskToBuy, .declineAskToBuy,
    ]
    for cmd in commands {
      if case .success(let change) = Simulator.apply(cmd, to: state, at: now) {
        #expect(change.transactions.count < 10, "\(cmd): \(change.transactions.count) transactions")
      }
    }
  }

  /// Found by fuzzing (a trap, run 5): a win-back offer whose
  /// `customerEligibilityTimeSinceLastSubscribedInMonths.maximum` is -2 made the simulator build a
  /// period of -1 months while looking for the next eligibility change. Month counts from a file
  /// now go through the eligibility rule's clamped arithmetic.
  @Test func aNegativeWinBackMonthLimitDoesNotCrashTheSimulator() throws {
    let bytes = Fixture.bytes("fuzz/fuzz-crash-win-back-maximum-minus-two.json")
    let state = try StateFile.decode(bytes, fileName: "fuzz.json") { (_) throws(StateFileError) in
      throw StateFileError(file: "fuzz.json", message: "no catalog file")
    }
    #expect(state.allWinBackOffers.contains { $0.monthsSinceLastSubscribedMax == -2 })
    let now = try Simulator.clock(state)
    var lapsed = state
    lapsed.subscriber.renewalInfo?.autoRenewStatus = .off
    for s in [state, lapsed] {
      _ = try Simulator.nextEvent(s)
      for cmd: SimCommand in [.advanceToNextEvent, .advance(.days(400)), .expireNow] {
        _ = Simulator.apply(cmd, to: s, at: now)
      }
    }
  }
}
