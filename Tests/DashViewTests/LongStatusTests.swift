import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView
@testable import SimulationRuns

/// Issue 9's report: at 200 columns a status message was still cut (`DID_CHANGE_RE…`). A long
/// message, the kind an applied notification or a refusal produces, is read whole: on one line
/// when the width allows, wrapped onto spare rows when it does not.
@Suite struct LongStatusTests {
  static let message = "Applied DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED from the App Store: auto-renew is off, "
    + "access continues until 2026-05-23 18:32 UTC; a win-back offer is possible after it ends."

  func frame(_ scenario: Scenario, width: Int, height: Int) -> Frame {
    render(scenario.viewModel(), UIState(status: StatusLine(Self.message)), width: width, height: height)
  }

  @Test func twoHundredColumnsShowTheWholeMessageOnOneLine() {
    #expect(Self.message.count < 200)
    for scenario in [Scenarios.active, Scenarios.example("price-increase"), Scenarios.expiredWithWinBack] {
      #expect(frame(scenario, width: 200, height: 50).lines.contains { $0.contains(Self.message) })
    }
  }

  @Test func narrowerScreensWrapItOntoSpareRows() {
    let text = frame(Scenarios.active, width: 120, height: 40).textDump.replacingOccurrences(of: "\n  ", with: " ")
    #expect(text.contains(Self.message))
  }
}
