import Foundation
import Testing

@testable import DashModel

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
}
