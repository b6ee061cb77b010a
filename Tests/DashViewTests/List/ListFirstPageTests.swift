import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView

/// The list's first screen from an index's first page (issue 23): it looks exactly as the list
/// over every row does, keys the page can answer act at once, and everything else pressed or
/// changed before every row is read is applied to them when they arrive, in order.
@Suite struct ListFirstPageTests {
  /// What an index answers for `all`'s first `limit` rows (DirectoryStore.firstPage).
  func firstPage(of all: ListState, limit: Int) -> ListFirstPage {
    let rows = all.visible.prefix(limit).map { all.rows[$0] }
    var ids: [String: Int] = [:]
    for id in Set(rows.compactMap(\.originalTransactionId)) { ids[id] = all.rows.filter { $0.originalTransactionId == id }.count }
    return ListFirstPage(rows: rows, counts: all.counts, idCounts: ids)
  }

  func loading(_ all: ListState, limit: Int) -> ListState {
    ListState(directory: all.directory, firstPage: firstPage(of: all, limit: limit), now: all.now)
  }

  func frame(_ s: ListState, height: Int = 12) -> Frame {
    ListRender.render(s, width: 120, height: height, readOnly: false, ascii: false)
  }

  /// Rows sharing an id (a copy beside the original) must show their file on the first screen too.
  var rowsWithACopy: [ListRow] {
    var copy = ListFixture.row("active")
    copy.file = "active-copy.json"
    return ListFixture.rows + [copy]
  }

  @Test func theFirstScreenIsTheListOverEveryRow() {
    let all = ListFixture.state(rowsWithACopy)
    #expect(all.sharesId(ListFixture.row("active")))
    for height in [6, 12, 30] {
      let first = loading(all, limit: height)
      #expect(first.loading != nil)
      #expect(first.totalRows == all.rows.count && first.shownRows == all.visible.count)
      #expect(frame(first, height: height) == frame(all, height: height), "\(height) lines")
    }
  }

  @Test func keysThePageAnswersActAtOnceAndTheRestWaitForEveryRow() {
    let all = ListFixture.state()
    var first = loading(all, limit: 12)
    var expected = all
    let keys: [Key] = [.down, .down, .char("/"), .char("g"), .char("r"), .enter, .char("2")]
    for key in keys {
      #expect(ListReducer.reduce(&first, .keyPressed(key), pageRows: 7).isEmpty)
      _ = ListReducer.reduce(&expected, .keyPressed(key), pageRows: 7)
      // Moving within the first page is answered at once, on the same row every row would show.
      if key == .down { #expect(first.selectedFile == expected.selectedFile) }
    }
    #expect(first.filterText.isEmpty && first.sort == ListSort(), "a filter and a sort need every row")
    #expect(first.selectedFile == all.rows[all.visible[2]].file, "after /, g is filter text: it waits too, and is not Home")
    #expect(ListReducer.finishLoading(&first, with: all, pageRows: 7).isEmpty)
    #expect(first == expected)
    #expect(first.filterText == "gr" && first.sort.column == .status)
  }

  @Test func qQuitsAtOnceAndEnterOpensItsRowOnceEveryRowIsHere() {
    let all = ListFixture.state(ListFixture.rows.filter { $0.error == nil })
    var first = loading(all, limit: 12)
    #expect(ListReducer.reduce(&first, .keyPressed(.down), pageRows: 7).isEmpty)
    #expect(ListReducer.reduce(&first, .keyPressed(.enter), pageRows: 7).isEmpty)
    let second = all.rows[all.visible[1]].file
    #expect(ListReducer.finishLoading(&first, with: all, pageRows: 7) == [.open(file: second)])
    var again = loading(all, limit: 12)
    #expect(ListReducer.reduce(&again, .keyPressed(.char("q")), pageRows: 7) == [.quit])
    var typing = loading(all, limit: 12)
    #expect(ListReducer.reduce(&typing, .keyPressed(.char("/")), pageRows: 7).isEmpty)
    #expect(ListReducer.reduce(&typing, .keyPressed(.char("q")), pageRows: 7).isEmpty, "after /, q is filter text")
    #expect(ListReducer.reduce(&typing, .keyPressed(.ctrl("c")), pageRows: 7) == [.quit])
  }

  @Test func aFileChangedWhileEveryRowIsReadShowsOnceTheyAreHere() {
    let all = ListFixture.state()
    var first = loading(all, limit: 12)
    var changed = ListFixture.row("active")
    changed.status = .revoked
    let at = ListFixture.wall + .seconds(1)
    #expect(ListReducer.reduce(&first, .rowsChanged(upserts: [changed], removed: ["refunded.json"], at: at), pageRows: 7).isEmpty)
    #expect(first.rows == firstPage(of: all, limit: 12).rows, "not applied to the first page alone")
    _ = ListReducer.reduce(&first, .ticked(at), pageRows: 7)
    #expect(ListReducer.finishLoading(&first, with: all, pageRows: 7).isEmpty)
    #expect(first.loading == nil)
    #expect(first.row("active.json")?.status == .revoked)
    #expect(first.isHighlighted("active.json"))
    #expect(first.row("refunded.json") == nil)
    var expected = all
    _ = ListReducer.reduce(&expected, .rowsChanged(upserts: [changed], removed: ["refunded.json"], at: at), pageRows: 7)
    #expect(first == expected, "the same counts, order and highlights as a change applied to every row")
  }
}
