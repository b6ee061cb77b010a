import DashModel
import DashView
import Foundation
import Testing
@testable import DashRuntime
@testable import subdash_list
import CoreValues

/// `subdash DIR` through the SQLite index: the first open builds it beside the files, a later open
/// shows the index's rows at once and then catches up with files changed meanwhile, and an index
/// that cannot be used never stops the list: it reads the files and says so.
@Suite struct IndexedListTests {
  static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Examples")
  static let wall = Instant(ms: 1_778_770_000_000)

  /// The examples' state files and catalogs, one by one: never the whole folder, whose other
  /// files (an index `subdash list Examples` left there) would become rows nobody expected.
  func freshDirectory() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("indexed-list-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false)
    for name in try FileManager.default.contentsOfDirectory(atPath: Self.examples.path)
    where !name.hasPrefix(".") && (name.hasSuffix(".json") || name.hasSuffix(".storekit")) {
      try FileManager.default.copyItem(at: Self.examples.appendingPathComponent(name), to: dir.appendingPathComponent(name))
    }
    return dir.path
  }

  func byFile(_ rows: [ListRow]) -> [String: ListRow] { Dictionary(uniqueKeysWithValues: rows.map { ($0.file, $0) }) }

  @Test func theFirstOpenBuildsTheIndexBesideTheFilesAndShowsWhatTheFilesSay() throws {
    let dir = try freshDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let source = IndexedList(directory: dir, indexPath: nil)
    let rows = try source.loadAll(wall: Self.wall)
    #expect(FileManager.default.fileExists(atPath: dir + "/.subdash-index.sqlite"))
    #expect(!source.checksAfterFirstScreen, "a new index was just filled from the files")
    #expect(source.takeNotice() == nil)
    #expect(byFile(rows) == byFile(try ListDirectory(path: dir, nowOverride: nil).loadAll(wall: Self.wall)))
  }

  @Test func aLaterOpenShowsTheIndexAtOnceThenCatchesUpWithChangedFiles() throws {
    let dir = try freshDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try IndexedList(directory: dir, indexPath: nil).loadAll(wall: Self.wall)
    // While no list was open: one file rewritten (atomically), one deleted, one added.
    let text = try String(contentsOfFile: dir + "/active.json", encoding: .utf8)
    try text.replacingOccurrences(of: "2000000871234560", with: "2000000999999999").write(toFile: dir + "/.edit", atomically: false, encoding: .utf8)
    #expect(rename(dir + "/.edit", dir + "/active.json") == 0)
    try FileManager.default.removeItem(atPath: dir + "/refunded.json")
    try FileManager.default.copyItem(atPath: dir + "/grace-period.json", toPath: dir + "/zz-new.json")

    let source = IndexedList(directory: dir, indexPath: nil)
    let first = byFile(try source.loadAll(wall: Self.wall))
    #expect(source.checksAfterFirstScreen)
    #expect(first["active.json"]?.originalTransactionId == "2000000871234560", "the first screen is the index as it was")
    let (upserts, removed) = source.changes(names: nil, wall: Self.wall)
    #expect(Set(upserts.map(\.file)) == ["active.json", "zz-new.json"])
    #expect(removed == ["refunded.json"])
    #expect(upserts.first { $0.file == "active.json" }?.originalTransactionId == "2000000999999999")
  }

  /// Issue 23: a later open draws the index's first page and counts; every row is read after it,
  /// and the files are compared with them then, so a file written while they were read shows.
  @Test func aLaterOpenDrawsTheFirstPageThenReadsEveryRowAndTheFilesChangedMeanwhile() throws {
    let dir = try freshDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    #expect(IndexedList(directory: dir, indexPath: nil).firstPage(limit: 10, wall: Self.wall) == nil, "a new index is built first, with its bar")
    let built = try IndexedList(directory: dir, indexPath: nil).loadAll(wall: Self.wall)

    let source = IndexedList(directory: dir, indexPath: nil)
    let first = try #require(source.firstPage(limit: 5, wall: Self.wall))
    #expect(!source.checksAfterFirstScreen, "the comparison comes with the rest")
    #expect(first.page.rows.count == 5 && first.page.total == built.count)
    // Written after the first screen was drawn, while every row is being read.
    let text = try String(contentsOfFile: dir + "/active.json", encoding: .utf8)
    try text.replacingOccurrences(of: "2000000871234560", with: "2000000999999999").write(toFile: dir + "/.edit", atomically: false, encoding: .utf8)
    #expect(rename(dir + "/.edit", dir + "/active.json") == 0)
    try FileManager.default.removeItem(atPath: dir + "/refunded.json")

    let rows = try first.rest().get()
    #expect(byFile(rows) == byFile(built), "every row as the index held them")
    let changes = try #require(first.compare())
    #expect(changes.upserts.map(\.file) == ["active.json"])
    #expect(changes.upserts.first?.originalTransactionId == "2000000999999999")
    #expect(changes.removed == ["refunded.json"])
  }

  @Test func anIndexThatCannotBeCreatedLeavesTheListReadingTheFiles() throws {
    let dir = try freshDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let source = IndexedList(directory: dir, indexPath: "/nonexistent-subdash-dir/index.sqlite")
    let rows = try source.loadAll(wall: Self.wall)
    let notice = try #require(source.takeNotice())
    #expect(notice.contains("every file is read"))
    #expect(!notice.contains("\n"))
    #expect(byFile(rows) == byFile(try ListDirectory(path: dir, nowOverride: nil).loadAll(wall: Self.wall)))
    #expect(source.takeNotice() == nil, "said once")
  }

  @Test func aWritableDirectoryKeepsItsIndexBesideTheFilesAndOtherwiseTheCacheDoes() throws {
    let dir = try freshDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    #expect(IndexLocation.path(for: dir) == dir + "/.subdash-index.sqlite")
    // The cache name is stable for a directory and differs between directories.
    #expect(IndexLocation.fnv1a("/srv/a") == IndexLocation.fnv1a("/srv/a"))
    #expect(IndexLocation.fnv1a("/srv/a") != IndexLocation.fnv1a("/srv/b"))
    #expect(IndexLocation.fnv1a("/srv/a").count == 16)
  }
}
