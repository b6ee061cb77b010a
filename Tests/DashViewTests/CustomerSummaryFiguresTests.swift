import Foundation
import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues
@testable import SubscriberStorage
@testable import SimulationRuns

/// The customer summary a support person reads beside the access verdict: its streak agrees with
/// access, and an upgrade's prorated refund counts in what was refunded.
@Suite struct CustomerSummaryFiguresTests {
  /// The summary's facts as `subdash show` lists them, one a line.
  static func facts(_ vm: ViewModel) -> [String] {
    guard let summary = vm.story?.summary else { return [] }
    return SummaryPanel.facts(summary, glyphs: .unicode).map(\.text)
  }

  @Test func aSubscriberInGraceIsStillOnTheirStreak() {
    // Examples/grace-period.json: paid Feb 10, Mar 10 and Apr 10; the May 10 renewal failed and
    // the grace period runs to May 26. At the file's clock (May 14) the customer has access.
    let vm = StoryRenderTests.viewModel(Scenarios.grace)
    #expect(render(vm, UIState(), width: 120, height: 40).textDump.contains("ACCESS: YES — in billing grace period"))
    let facts = Self.facts(vm)
    #expect(facts.contains("streak 3 paid since 2026-02-10 06:00"), "\(facts)")
    #expect(!facts.contains { $0.contains("not subscribed now") })
  }

  @Test func anUpgradesProratedRefundIsRefundedAndLeavesTheNet() throws {
    // Basic Monthly (4.99 USD) bought Feb 1, upgraded Feb 11 to Premium Monthly (9.99 USD). The
    // Basic period runs Feb 1 to Mar 1, 28 days, of which 18 were unused at the upgrade:
    // 4.99 × 18 / 28 = 3.2079, rounded to the cent 3.21 USD refunded. Spent 4.99 + 9.99 = 14.98;
    // net 14.98 − 3.21 = 11.77.
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("summary-upgrade-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    defer { try? FileManager.default.removeItem(at: dir) }
    let statePath = dir.appendingPathComponent("upgraded.json").path
    let script = """
      catalog pass.storekit
      start 2026-02-01T00:00:00Z
      buy pass.basic.monthly
      advance 10 days
      upgrade to pass.premium.monthly
      """
    let scripts = Scenarios.examples.appendingPathComponent("scenarios").path
    _ = try ScenarioRunner(scenario: try ScenarioParser.parse(script, fileName: "upgrade"), scriptDirectory: scripts, statePath: statePath).run()
    let state = try StateFile.load(path: statePath)
    let now = try Format.parseDate("2026-02-11T00:00:00Z")
    var vm = ViewModel.derived(state: state, notifications: state.subscriber.notifications.reversed(), fileName: "upgraded.json",
                               clock: DashClock(simulated: now, wall: now), options: DisplayOptions())
    vm.story = CustomerStory.derive(CustomerHistory.load(state, statePath: statePath), state: state, now: now)
    // The event that announced it, as the dashboard shows it.
    #expect(state.subscriber.notifications.contains { $0.summary?.contains("refund 3.21 USD") == true })
    let facts = Self.facts(vm)
    #expect(facts.contains("spent 14.98 USD"), "\(facts)")
    #expect(facts.contains("refunded 3.21 USD"), "\(facts)")
    #expect(facts.contains("net 11.77 USD"), "\(facts)")
  }
}
