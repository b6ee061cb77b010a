import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues

/// The list as support uses it every day (issue 22 §4): dates say their year when it is not the
/// list's, two files of one subscriber are told apart, a wide terminal shows what a narrow one
/// cuts, the column numbers run left to right, and a row in billing retry says when retry ends.
@Suite struct ListDailyUseTests {
  func text(_ row: ListRow, _ column: ListColumn, in s: ListState) -> String {
    ListRender.cellText(row, column, s, .unicode).text
  }

  @Test func aLastEventInAnotherYearShowsTheYear() {
    var row = ListFixture.row("active")
    let s = ListFixture.state([row])
    #expect(text(row, .lastEvent, in: s) == "DID_RENEW Apr 23 18:32")
    row.lastEventDate = Instant(ms: 1_740_000_000_000)  // 2025-02-19, the year before the list's clock
    #expect(text(row, .lastEvent, in: ListFixture.state([row])) == "DID_RENEW 2025-02-19 21:20")
  }

  @Test func rowsSharingAnOriginalTransactionIdShowTheirFile() {
    let original = ListFixture.row("grace-period")
    var copy = original
    copy.file = "grace-copy.json"
    var s = ListFixture.state([original, copy, ListFixture.row("active")])
    #expect(text(original, .id, in: s) == "2000000820915733 grace-period.json")
    #expect(text(copy, .id, in: s) == "2000000820915733 grace-copy.json")
    #expect(text(ListFixture.row("active"), .id, in: s) == "2000000871234560")
    // The copy goes: the one left is alone again, and reads as before.
    s.apply(upserts: [], removed: ["grace-copy.json"], at: ListFixture.wall)
    #expect(text(original, .id, in: s) == "2000000820915733")
    // It comes back in a live change: told apart again.
    s.apply(upserts: [copy], removed: [], at: ListFixture.wall)
    #expect(text(original, .id, in: s) == "2000000820915733 grace-period.json")
    // A narrow id column keeps the end, the file, rather than the id's digits both rows share.
    let narrow = ListRender.render(s, width: 80, height: 10, readOnly: false, ascii: false).textDump
    #expect(narrow.contains("…grace-copy.json"))
    #expect(narrow.contains("…ace-period.json"))
    let wide = ListRender.render(s, width: 200, height: 10, readOnly: false, ascii: false).textDump
    #expect(wide.contains("2000000820915733 grace-copy.json"))
    #expect(wide.contains("2000000820915733 grace-period.json"))
  }

  /// At 120 columns two files of one subscriber once widened the id column to 42, cutting the
  /// product, the countdown and the last event to a few letters: the id keeps its usual width
  /// and the cut columns get the room.
  @Test func aSharedIdLeavesTheRoomToTheColumnsThatWereCut() throws {
    let s = ListSnapshotTests.everyKindOfCell()
    let frame = ListRender.render(s, width: 120, height: 30, readOnly: false, ascii: false)
    let screen = frame.textDump
    let columns = ListRender.layout(width: 120, needs: ListRender.needs(s, rows: s.visible.prefix(25).map { s.rows[$0] }, .unicode))
    #expect(columns.first { $0.column == .id }?.width == 18)
    #expect(screen.contains("Premium (Annual)"))
    #expect(screen.contains("retry ends in 41d 01h"))
    #expect(screen.contains("— NOT SUBSCRIBED  —"))
    #expect(screen.contains("DID_RENEW Apr 23 18:32"))
    #expect(screen.contains("…grace-copy.json") && screen.contains("…ace-period.json"))
  }

  /// Every column stands apart from the next: two spaces after any text shown whole (one after
  /// a cut one, whose ellipsis ends it), so "retry ends in 41d 01h" and the flag "retry" never
  /// read as one phrase.
  @Test(arguments: [80, 120, 160, 200])
  func columnsNeverRunTogether(width: Int) throws {
    let s = ListSnapshotTests.everyKindOfCell()
    let frame = ListRender.render(s, width: width, height: 30, readOnly: false, ascii: false)
    let columns = ListRender.layout(width: width, needs: ListRender.needs(s, rows: s.visible.prefix(25).map { s.rows[$0] }, .unicode))
    for line in frame.lines.dropFirst(4).prefix(25) where !line.contains("FILE ERROR") && !line.allSatisfy({ $0 == " " }) {
      let cells = Array(line)
      for column in columns.dropFirst() where column.x < cells.count {
        let before = cells[max(0, column.x - 2)..<column.x]
        let cut = cells[max(0, column.x - 2)] == "…"
        #expect(before.allSatisfy { $0 == " " } || (cut && cells[column.x - 1] == " "), "\(width) columns, before \(column.column): \(line)")
      }
    }
  }

  @Test func widthLeftOverGoesToTheColumnsThatWereCut() {
    let s = ListFixture.state()
    let event = "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED May 10 12:41"
    let narrow = ListRender.render(s, width: 160, height: 30, readOnly: false, ascii: false).textDump
    #expect(!narrow.contains(event))
    let wide = ListRender.render(s, width: 200, height: 30, readOnly: false, ascii: false).textDump
    #expect(wide.contains(event))
    #expect(wide.contains("c0b8e2d4-5f17-4a63-9e2a-8b41d7f09c35"))
  }

  @Test(arguments: [80, 120, 160, 200])
  func columnsAreNumberedLeftToRightAsTheNumberKeysSort(width: Int) {
    let columns = ListRender.layout(width: width)
    #expect(columns.map(\.column.rawValue) == Array(0..<columns.count))
    #expect(zip(columns, columns.dropFirst()).allSatisfy { $0.x + $0.width <= $1.x })
    // The key that sorts by the rightmost column is the number its heading shows.
    var s = ListFixture.state()
    _ = ListReducer.reduce(&s, .keyPressed(.char(Character(String(columns.count)))), pageRows: 20)
    #expect(s.sort.column == columns.last?.column)
  }

  @Test func aRowInBillingRetryIsDueWhenRetryEnds() throws {
    let row = ListFixture.row("billing-retry")
    #expect(row.status == .retry)
    let due = try #require(row.due)
    #expect(due.kind == .retryEnds)
    #expect(due.date == Instant(ms: 1_782_318_600_000))  // 2026-06-24T16:30:00Z, 60 days after the failed renewal
    #expect(text(row, .due, in: ListFixture.state([row])).hasPrefix("retry ends in "))
    // Sorting by due puts it among the rows that have a date, not with those that have none.
    var s = ListFixture.state([row, ListFixture.row("expired-voluntary"), ListFixture.row("active")])
    s.setSort(ListSort(.due))
    #expect(ListFixture.files(s) == ["active.json", "billing-retry.json", "expired-voluntary.json"])
  }

  @Test(arguments: Scenarios.exampleNames + ["billing-retry"])
  func listJSONNamesTheStatusAsShowJSONDoes(_ stem: String) {
    let scenario = Scenarios.example(stem)
    let row = ListRow.derive(file: "\(stem).json", state: scenario.state, at: scenario.now)
    let report = Lifecycle.derive(scenario.state, at: scenario.now)
    guard case .object(let listed) = row.json, case .object(let shown) = report.json else {
      Issue.record("not objects")
      return
    }
    #expect(listed["status"] == shown["status"])
    #expect(listed["statusName"] == shown["statusName"])
  }

  @Test func tsvHasAHeaderAndTheSameFieldsOnEveryLine() {
    let tsv = ListTable.tsv(ListFixture.rows)
    let lines = tsv.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == ListFixture.rows.count + 1)
    #expect(lines.first.map(String.init) == ListTable.tsvFields.joined(separator: "\t"))
    for line in lines { #expect(line.split(separator: "\t", omittingEmptySubsequences: false).count == ListTable.tsvFields.count) }
    // A tab in a file name or an error cannot add a field.
    let odd = ListRow.unreadable(file: "a\tb.json", error: "line 1\tcolumn 2\nnext")
    let oddLine = ListTable.tsv([odd]).split(separator: "\n")[1]
    #expect(oddLine.split(separator: "\t", omittingEmptySubsequences: false).count == ListTable.tsvFields.count)
  }
}
