import Testing
@testable import DashModel
@testable import DashView

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
    let screen = ListRender.render(s, width: 80, height: 10, readOnly: false, ascii: false).textDump
    #expect(screen.contains("2000000820915733 grace-copy.json"))
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
