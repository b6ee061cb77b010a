import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// Overdue events are renewals (and the rest) due before the file's own clock: `simulation.now`
/// was moved past a period without simulating it. One step applies up to 1,000 of them and
/// refuses more, so a hand-edited clock cannot make one key press invent millions of renewals.
@Suite("Simulator: overdue events")
struct SimulatorOverdueTests {
  /// The active example at the fastest rate, and the dates of its next `count` renewals.
  static func fastSubscriber(renewals count: Int) throws -> (SubscriptionState, [Instant]) {
    let active = try StateFile.load(path: ExamplesTests.directory.appendingPathComponent("active.json").path)
    let state = try Simulator.configure(active) { $0.timeRate = "oneRenewalEveryTwoSeconds" }.get().state
    var ctx = try SimContext(state)
    var dates: [Instant] = []
    while dates.count < count, let next = ctx.pendingEvents().first {
      #expect(next.kind == .renewal)
      ctx.process(next)
      dates.append(next.date)
    }
    return (state, dates)
  }

  static func withClock(_ state: SubscriptionState, at now: Instant) throws -> SubscriptionState {
    try Simulator.configure(state) { $0.now = now }.get().state
  }

  @Test func aThousandOverdueRenewalsAreCaughtUpInOneStep() throws {
    let (state, dates) = try Self.fastSubscriber(renewals: 1_001)
    let behind = try Self.withClock(state, at: dates[1_000] - .millisecond)
    let change = try Simulator.advance(behind, to: dates[1_000] - .millisecond)
    #expect(change.notifications.filter { $0.notificationType == .didRenew }.count == 1_000)
    #expect(try Simulator.clock(change.state) == dates[1_000] - .millisecond)
  }

  @Test func oneMoreOverdueRenewalIsRefusedWithTheDatesToFix() throws {
    let (state, dates) = try Self.fastSubscriber(renewals: 1_001)
    let behind = try Self.withClock(state, at: dates[1_000])
    let error = #expect(throws: ActionError.self) { try Simulator.advance(behind, to: dates[1_000]) }
    let text = error?.description ?? ""
    #expect(text.hasPrefix("More than 1,000 events are overdue: simulation.now (\(Format.date(dates[1_000])))"), "\(text)")
    #expect(text.contains("set simulation.now back near \(Format.date(dates[0]))"), "\(text)")
  }

  @Test func dashboardKeysAreRefusedButTheNextEventKeyStillStepsOneAtATime() throws {
    let (state, dates) = try Self.fastSubscriber(renewals: 1_001)
    let behind = try Self.withClock(state, at: dates[1_000])
    for cmd: SimCommand in [.advance(.days(1)), .failNextRenewal, .expireNow, .refund, .requestPriceIncrease] {
      guard case .failure(let error) = Simulator.apply(cmd, to: behind, at: dates[1_000]) else {
        Issue.record("\(cmd) was applied to a clock 1,001 renewals ahead")
        continue
      }
      #expect(error.description.hasPrefix("More than 1,000 events are overdue"), "\(cmd): \(error)")
    }
    let one = try Simulator.advanceToNextEvent(behind)
    #expect(one.transactions.count == 1)
    #expect(one.transactions.first?.purchaseDate == dates[0])
  }

  /// The fuzz input that found it: an auto-renewing period that ended in 2026, the clock in
  /// 2082 and a month every 15 minutes, about two million renewals. Each step used to run to the
  /// 100,000-event safety stop (1.5 s, 40 MB of journal); now it is refused without writing.
  @Test func aClockDecadesAheadOfARenewingPeriodIsRefusedNotCaughtUp() throws {
    let bytes = Fixture.bytes("fuzz/renewing-56-years-behind-the-clock.json")
    let state = try StateFile.decode(bytes, fileName: "fuzz.json") { (_) throws(StateFileError) in
      throw StateFileError(file: "fuzz.json", message: "no catalog file")
    }
    let now = try Simulator.clock(state)
    for cmd: SimCommand in [.advance(.days(1)), .resolveBillingIssue, .declineAskToBuy] {
      guard case .failure(let error) = Simulator.apply(cmd, to: state, at: now) else {
        Issue.record("\(cmd) caught up decades of renewals")
        continue
      }
      #expect(error.description.contains("events are overdue"), "\(cmd): \(error)")
    }
    #expect(try Simulator.advanceToNextEvent(state).transactions.count == 1)
  }
}
