import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView

/// A contradictory file has several warnings; the banner has room for one, so it points to `?`,
/// which lists every one of them first.
@Suite struct WarningsListTests {
  let vm = Scenarios.example("contradictory").viewModel()

  @Test func theBannerSaysWhereTheOtherWarningsAre() {
    let screen = render(vm, UIState(), width: 120, height: 40).textDump
    #expect(screen.contains("more: ? lists them)"))
  }

  @Test func helpListsEveryWarningBeforeTheKeys() {
    #expect(vm.report.warnings.count > 1)
    let lines = Overlays.helpLines(vm, UIState(), ascii: false).map(\.text)
    #expect(lines.first == "Check file (\(vm.report.warnings.count) warnings)")
    // Long warnings wrap with an indent: compare with whitespace collapsed.
    let text = lines.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    for w in vm.report.warnings {
      let words = Sanitizer.clean(w).split(separator: " ").prefix(6).joined(separator: " ")
      #expect(text.contains(words), "\(w)")
    }
    #expect(lines.contains("Dashboard"))
  }

  /// `subdash show` has no `?` key: it points to its own Warnings section.
  @Test func theTicketReportPointsToItsWarningsSection() {
    let lines = PlainReport.lines(vm)
    #expect(lines.contains { $0.hasSuffix("more: see Warnings below)") })
    #expect(!lines.contains { $0.contains("? lists them") })
    #expect(lines.contains("== Warnings =="))
  }
}
