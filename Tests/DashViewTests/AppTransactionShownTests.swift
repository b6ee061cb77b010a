import Foundation
import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues
@testable import SubscriberImport
@testable import SimulationRuns

/// The app transaction `fetch` records (Get App Transaction Info) is shown: a line under the
/// subscriber's identifiers on the dashboard, and under them in plain `show`.
@Suite struct AppTransactionShownTests {
  /// active.json as `fetch` would leave it, with a version string carrying a terminal escape.
  static func scenario() -> Scenario {
    Scenarios.example("active").with(name: "active") { state in
      FetchedAppTransaction(appTransactionId: "704289572311151820", originalPurchaseDate: Instant(ms: 1_767_312_000_000),
                            originalApplicationVersion: "1.0\u{1B}[2J", environment: "Sandbox", signature: "trusted root")
        .write(into: &state.document.source)
    }
  }

  @Test func theDashboardSaysItUnderTheIdentifiers() {
    let vm = StoryRenderTests.viewModel(Self.scenario())
    let frame = render(vm, StoryRenderTests.ui(vm, width: 120, height: 30, keys: []), width: 120, height: 30)
    let lines = frame.textDump.components(separatedBy: "\n")
    #expect(lines.count > 2 && lines[2].hasPrefix("app transaction 704289572311151820 · first installed version 1.0␛[2J · app purchased 2026-01-02 00:00 UTC"))
    #expect(!frame.textDump.contains("\u{1B}[2J"))
    assertSnapshot(frame, named: "app-transaction-120x30")
    // On the smallest screen the third line still fits (the panels give up rows, not the header).
    let small = render(vm, StoryRenderTests.ui(vm, width: 40, height: 12, keys: []), width: 40, height: 12).textDump.components(separatedBy: "\n")
    #expect(small.count > 2 && small[2].hasPrefix("app transaction 7042895723111"))
    // Without one, the header keeps its two lines.
    let plain = StoryRenderTests.viewModel(Scenarios.example("active"))
    #expect(!render(plain, StoryRenderTests.ui(plain, width: 120, height: 30, keys: []), width: 120, height: 30).textDump.contains("app transaction"))
  }

  @Test func plainShowSaysItToo() {
    let lines = PlainReport.lines(StoryRenderTests.viewModel(Self.scenario()))
    #expect(lines[2] == "app transaction 704289572311151820 · first installed version 1.0␛[2J · app purchased 2026-01-02 00:00 UTC · Sandbox, trusted root")
  }
}
