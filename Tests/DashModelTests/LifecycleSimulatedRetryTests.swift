import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// At an accelerated time rate, billing retry lasts the rate's retry length, not 60 real days;
/// the dashboard's "retrying until …" must say what the simulator will actually do.
@Suite struct LifecycleSimulatedRetryTests {
  @Test func retryWindowFollowsTheSimulatorsScaledEnd() throws {
    var state = try StateFile.load(path: ExamplesTests.directory.appendingPathComponent("active.json").path)
    state.document.simulation?["timeRate"] = .string("oneRenewalEveryTwoSeconds")
    state.document.simulation?["failRenewals"] = .bool(true)
    state.document.simulation?["gracePeriod"] = .string("off")

    let failed = try Simulator.advanceToNextEvent(state).state
    let now = try Simulator.clock(failed)
    let report = Lifecycle.derive(failed, at: now)

    #expect(report.status == .billingRetry)
    let retry = try #require(report.billingRetry)
    // The two-second fixed rate retries for twice the renewal time.
    #expect(retry.retryUntil - retry.since == .seconds(4))
  }

  @Test func retryWindowIsSixtyDaysWithoutASimulatedIssue() throws {
    let state = try StateFile.load(path: ExamplesTests.directory.appendingPathComponent("billing-retry.json").path)
    guard case .number(let n)? = state.document.simulation?["now"], let ms = Double(n) else { throw CancellationError() }
    let retry = try #require(Lifecycle.derive(state, at: Instant(ms: ms)).billingRetry)
    #expect(retry.retryUntil - retry.since == .days(60))
  }
}
