import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// A subscriber who cancels during billing grace keeps access until the grace period ends; the
/// renewal outlook says that date, not the unpaid expiresDate that has already passed.
@Suite("Lifecycle: cancelled in grace")
struct LifecycleCancelledInGraceTests {
  @Test func theOutlookEndsWithTheGracePeriod() throws {
    var state = try StateFile.load(path: ExamplesTests.directory.appendingPathComponent("grace-period.json").path)
    state.subscriber.renewalInfo?.autoRenewStatus = .off
    let now = try Simulator.clock(state)
    let report = Lifecycle.derive(state, at: now)
    let graceEnd = try #require(state.subscriber.renewalInfo?.gracePeriodExpiresDate)
    #expect(report.status == .billingGracePeriod)
    #expect(report.renewal == .expiresAutoRenewOff(date: graceEnd))
  }
}
