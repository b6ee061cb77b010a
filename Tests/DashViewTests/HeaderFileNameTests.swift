import Testing
@testable import DashModel
@testable import DashView

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
