import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView

/// The list's keys, as a support person presses them.
@Suite struct ListKeysTests {
  func press(_ s: inout ListState, _ keys: Key...) -> [ListEffect] {
    var effects: [ListEffect] = []
    for key in keys { effects += ListReducer.reduce(&s, .keyPressed(key), pageRows: 5) }
    return effects
  }

  func type(_ s: inout ListState, _ text: String) {
    for c in text { _ = press(&s, .char(c)) }
  }

  @Test func slashTypesAFilterThatNarrowsWithEveryKey() {
    var s = ListFixture.state()
    _ = press(&s, .char("/"))
    type(&s, "status:g")
    // Sorted by originalTransactionId, as numbers.
    #expect(ListFixture.files(s) == ["grace-period.json", "contradictory.json"])
    _ = press(&s, .enter)  // keeps the filter, back to the rows
    #expect(!s.editingFilter && s.filterText == "status:g")
    #expect(press(&s, .down, .enter) == [.open(file: "contradictory.json")])
  }

  @Test func qIsALetterWhileTypingAndQuitsOtherwise() {
    var s = ListFixture.state()
    #expect(press(&s, .char("/"), .char("q")) == [])
    #expect(s.filterText == "q")
    _ = press(&s, .backspace)
    #expect(s.filterText.isEmpty)
    #expect(press(&s, .escape, .char("q")) == [.quit])
  }

  @Test func escClearsTheFilterAndTheSelectionStaysOnItsRow() {
    var s = ListFixture.state()
    _ = press(&s, .char("/"))
    type(&s, "refunded")
    _ = press(&s, .enter)
    #expect(s.selectedRow?.file == "refunded.json")
    _ = press(&s, .escape)
    #expect(s.filterText.isEmpty)
    #expect(s.selectedRow?.file == "refunded.json")
    #expect(s.visible.count == ListFixture.rows.count)
  }

  @Test func sortKeysCycleReverseAndPickAColumn() {
    var s = ListFixture.state()
    _ = press(&s, .char("s"))
    #expect(s.sort == ListSort(.status))
    #expect(s.rows[s.visible[0]].status == .active)
    _ = press(&s, .char("S"))
    #expect(s.sort == ListSort(.status, descending: true))
    #expect(s.rows[s.visible[0]].status == .fileError)
    _ = press(&s, .char("4"))
    #expect(s.sort == ListSort(.due))
    _ = press(&s, .char("4"))
    #expect(s.sort == ListSort(.due, descending: true))
  }

  @Test func enterOnAnUnreadableFileExplainsInsteadOfOpening() {
    var s = ListFixture.state()
    _ = press(&s, .char("/"))
    type(&s, "status:error")
    #expect(press(&s, .enter, .enter) == [])
    #expect(s.message?.hasPrefix("cannot open broken.json") == true)
  }

  @Test func movementScrollsAPageAtATime() {
    var s = ListFixture.state()
    _ = press(&s, .pageDown, .pageDown)
    #expect(s.selectedIndex == 10)
    #expect(s.top == 6)
    _ = press(&s, .end)
    #expect(s.selectedIndex == ListFixture.rows.count - 1)
    _ = press(&s, .home)
    #expect(s.selectedIndex == 0 && s.top == 0)
  }
}
