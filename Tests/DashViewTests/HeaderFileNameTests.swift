import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues

/// Support staff open files by long paths over SSH; the header keeps the file name and drops the
/// front of the path when it must.
@Suite struct HeaderFileNameTests {
  @Test func aLongPathLosesItsFrontNotTheFileName() {
    let s = Scenarios.active
    let vm = ViewModel.derived(state: s.state, notifications: [], fileName: "/srv/support/tickets/2026/11/customer-4711/active.json", clock: s.clock)
    let top = render(vm, UIState(), width: 80, height: 24).lines[0]
    #expect(top.contains("…"))
    #expect(top.contains("customer-4711/active.json"))
    #expect(top.hasSuffix("sim 2026-05-14 15:00 UTC"))
  }

  @Test func truncatingFromTheFrontCountsColumns() {
    #expect(Sanitizer.truncateLeading("abcdef", to: 4) == "…def")
    #expect(Sanitizer.truncateLeading("abc", to: 4) == "abc")
    #expect(Sanitizer.truncateLeading("目録/a.json", to: 7) == "…a.json")
  }

  @Test func theDemoKeepsItsLabelAndCutsThePathInside() {
    let name = "demo (/tmp/subdash-demo-12345-987654321/demo.json)"
    #expect(HeaderPanel.shortened(name, to: 30, ellipsis: "…") == "demo (…45-987654321/demo.json)")
    #expect(HeaderPanel.shortened(name, to: 80, ellipsis: "…") == name)
  }
}

/// An Xcode file opened as is: the header, at 80 columns beside "[unverified (Xcode)]
/// [read-only]" and the clock, must still name the file, not show "…jws".
@Suite struct ImportedHeaderFileNameTests {
  @Test func anImportedFileKeepsItsNameBesideTheBadges() throws {
    let name = "Tests/DashModelTests/Fixtures/appstore/xcode_xcode-signed-transaction.jws"
    let state = try ImportRenderTests().imported("appstore/xcode_xcode-signed-transaction.jws")
    func top(_ width: Int) -> String {
      let vm = ViewModel.derived(state: state, notifications: [], fileName: name + " (imported, not saved)",
                                 clock: DashClock(simulated: nil, wall: Instant(ms: 1_800_000_000_000)), options: DisplayOptions(readOnly: true))
      return render(vm, UIState(), width: width, height: 30).lines[0]
    }
    // From 100 columns the whole name (the clock drops its year to make room).
    for width in [100, 120, 200] { #expect(top(width).contains("xcode_xcode-signed-transaction.jws"), "\(width): \(top(width))") }
    // At 80 the name is cut in its middle: which file, and what kind.
    #expect(top(80).contains("xcode_"), "\(top(80))")
    #expect(top(80).contains("….jws"), "\(top(80))")
  }

  @Test func aNameTooLongForTheRoomKeepsItsStartAndExtension() {
    let cut = HeaderPanel.shortened("/a/b/xcode_xcode-signed-transaction.jws (imported, not saved)", to: 20, ellipsis: "…")
    #expect(cut.count <= 20)
    #expect(cut.hasPrefix("xcode_"))
    #expect(cut.hasSuffix(".jws"))
  }
}
