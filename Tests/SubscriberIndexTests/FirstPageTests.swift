import Foundation
import Testing
@testable import DashModel
@testable import DashView
@testable import SubscriberIndex
@testable import CoreValues

/// The list's first screen from SQL (issue 23): the index's first rows in the list's opening
/// order and its counts by status are what the list over every row shows.
@Suite struct FirstPageTests {
  static let wall = Instant(ms: 1_778_770_000_000)

  /// The examples' state files and catalogs, with a copy of one subscriber (two rows share an id,
  /// so both show their file) and a file that cannot be read (a row without an id sorts first).
  func directory() throws -> String {
    let dir = try ExampleFiles.copied(into: "first-page")
    try FileManager.default.copyItem(atPath: dir.path + "/active.json", toPath: dir.path + "/active-copy.json")
    try Data("{ not json".utf8).write(to: dir.appendingPathComponent("broken.json"))
    return dir.path
  }

  @Test func theFirstPageIsTheListsFirstRowsWithEveryRowsCounts() throws {
    let dir = try directory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let store = try DirectoryStore(directory: dir)
    _ = try store.refresh(names: nil, wall: Self.wall)
    let all = ListState(directory: dir, rows: try store.list(), now: Self.wall)
    #expect(all.rows.count >= 19)
    #expect(all.rows[all.visible[0]].originalTransactionId == nil, "rows without an id come first")
    #expect(all.rows.contains { all.sharesId($0) })
    for limit in [1, 3, 8, 12, 40] {
      let page = try store.firstPage(limit: limit)
      #expect(page.rows == all.visible.prefix(limit).map { all.rows[$0] }, "first \(limit)")
      #expect(page.counts == all.counts)
      #expect(page.total == all.rows.count)
      for row in page.rows {
        #expect((row.originalTransactionId.flatMap { page.idCounts[$0] } ?? 0 > 1) == all.sharesId(row), "\(row.file)")
      }
      // The screen as the list over every row draws it, at the height that page fills.
      let first = ListState(directory: dir, firstPage: page, now: Self.wall)
      let height = max(limit, 6)
      #expect(ListRender.render(first, width: 120, height: height, readOnly: false, ascii: false)
              == ListRender.render(all, width: 120, height: height, readOnly: false, ascii: false), "\(height) lines")
    }
  }

  @Test func anEmptyIndexHasAnEmptyFirstPage() throws {
    let dir = try directory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let page = try DirectoryStore(directory: dir).firstPage(limit: 40)
    #expect(page.rows.isEmpty && page.counts.isEmpty && page.total == 0)
  }
}
