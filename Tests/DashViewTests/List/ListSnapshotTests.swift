import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView

/// The list screen at the design size, wide, ASCII, filtered and with help, as text.
@Suite struct ListSnapshotTests {
  func render(_ s: ListState, _ w: Int, _ h: Int, readOnly: Bool = false, ascii: Bool = false) -> Frame {
    ListRender.render(s, width: w, height: h, readOnly: readOnly, ascii: ascii)
  }

  @Test func examplesAtEverySize() {
    let s = ListFixture.state()
    assertSnapshot(render(s, 80, 24), named: "list-80x24")
    assertSnapshot(render(s, 160, 30), named: "list-160x30")
    assertSnapshot(render(s, 40, 12), named: "list-40x12")
  }

  /// The examples with a subscriber in billing retry ("retry ends in 41d 01h") and a second file
  /// of the subscriber in grace: every kind of cell the list cuts.
  static func everyKindOfCell() -> ListState {
    var copy = ListFixture.row("grace-period")
    copy.file = "grace-copy.json"
    return ListFixture.state(ListFixture.rows + [ListFixture.row("billing-retry"), copy])
  }

  @Test(arguments: [(80, 24), (120, 30), (200, 30)])
  func theExamplesAtTheWidthsSupportUses(_ size: (Int, Int)) {
    assertSnapshot(render(Self.everyKindOfCell(), size.0, size.1), named: "list-cells-\(size.0)x\(size.1)")
  }

  @Test func typingAFilterShowsTheCursorAndTheMatches() {
    var s = ListFixture.state()
    for key in [Key.char("/")] + "status:grace".map(Key.char) { _ = ListReducer.reduce(&s, .keyPressed(key), pageRows: 19) }
    assertSnapshot(render(s, 80, 24), named: "list-filter-80x24")
    s.setFilter("nobody-has-this-id")
    #expect(render(s, 80, 24).lines[4].contains("no subscriber matches the filter"))
  }

  @Test func asciiReadOnlyAndHelp() {
    var s = ListFixture.state()
    let ascii = render(s, 80, 24, readOnly: true, ascii: true)
    #expect(ascii.textDump.unicodeScalars.allSatisfy { $0.isASCII })
    assertSnapshot(ascii, named: "list-ascii-read-only-80x24")
    s.showingHelp = true
    assertSnapshot(render(s, 80, 24), named: "list-help-80x24")
  }

  @Test func aChangedRowIsDrawnHighlighted() throws {
    var s = ListFixture.state()
    var changed = ListFixture.row("active")
    changed.status = .expired
    s.apply(upserts: [changed], removed: [], at: ListFixture.wall)
    let frame = render(s, 80, 24)
    let id = try #require(changed.originalTransactionId)
    let y = try #require(frame.lines.firstIndex { $0.hasPrefix("  \(id) ") })
    let styles = frame.styleDump.split(separator: "\n").filter { $0.hasPrefix("\(y) ") }
    #expect(!styles.isEmpty && styles.allSatisfy { $0.contains(" changed") })
    assertSnapshot(frame, named: "list-changed-80x24")
  }

  /// File contents reach the screen sanitized: an escape sequence in an id is not sent raw.
  @Test func controlCharactersInFilesNeverReachTheTerminal() {
    var row = ListFixture.row("active")
    row.originalTransactionId = "123\u{1B}[2J456"
    let frame = render(ListFixture.state([row]), 80, 24)
    #expect(!frame.textDump.contains("\u{1B}"))
  }
}
