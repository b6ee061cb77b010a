import Foundation
import Testing
@testable import DashModel
@testable import DashView
@testable import SubscriberIndex
@testable import CoreValues
@testable import SubscriberStorage

/// The index beside a directory of state files: it agrees with the files, re-reads only what
/// changed, follows time, and can be deleted or damaged without losing anything.
@Suite struct DirectoryStoreTests {
  static let wall = Instant(ms: 1_778_770_000_000)

  /// A private copy of the examples' state files and their catalogs.
  func freshDirectory() throws -> String { try ExampleFiles.copied(into: "store").path }

  func byFile(_ rows: [ListRow]) -> [String: ListRow] { Dictionary(uniqueKeysWithValues: rows.map { ($0.file, $0) }) }

  /// Replaces a file the way SubDash writes: a temp file renamed over it.
  func replace(_ dir: String, _ name: String, _ edit: (String) -> String) throws {
    let path = dir + "/" + name
    let text = try String(contentsOfFile: path, encoding: .utf8)
    try edit(text).write(toFile: dir + "/.tmp-edit", atomically: false, encoding: .utf8)
    #expect(rename(dir + "/.tmp-edit", path) == 0)
  }

  @Test func theFirstOpenReadsEveryFileAndAgreesWithTheFiles() throws {
    let dir = try freshDirectory()
    let store = try DirectoryStore(directory: dir)
    let changes = try store.refresh(names: nil, wall: Self.wall)
    let stateFiles = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") }
    #expect(stateFiles.count >= 17)
    #expect(changes.upserts.count == stateFiles.count)
    let rows = byFile(try store.list())
    #expect(rows.count == stateFiles.count)
    #expect(FileManager.default.fileExists(atPath: dir + "/.subdash-index.sqlite"))
    for (name, row) in rows {
      #expect(row == ListRow.read(path: dir + "/" + name, file: name, nowOverride: nil, wall: Self.wall), "\(name)")
    }
    #expect(try store.get("grace-period.json")?.status == .grace)
  }

  /// The index lists every subscriber's ids and status: like every file SubDash creates, it and
  /// SQLite's -wal/-shm files beside it are readable by their owner only, whatever the umask.
  @Test func theIndexAndItsWriteAheadFilesArePrivate() throws {
    let dir = try freshDirectory()
    let old = umask(0o022)
    defer { umask(old) }
    let store = try DirectoryStore(directory: dir)
    _ = try store.refresh(names: nil, wall: Self.wall)
    for suffix in ["", "-wal", "-shm"] {
      let path = dir + "/.subdash-index.sqlite" + suffix
      guard FileManager.default.fileExists(atPath: path) else { continue }
      var st = stat()
      #expect(stat(path, &st) == 0)
      #expect(st.st_mode & 0o777 == 0o600, "\(path) is \(String(st.st_mode & 0o777, radix: 8))")
    }
  }

  @Test func reopeningReadsNothingAndAChangedFileIsReadAgain() throws {
    let dir = try freshDirectory()
    _ = try DirectoryStore(directory: dir).refresh(names: nil, wall: Self.wall)
    let store = try DirectoryStore(directory: dir)
    #expect(try store.refresh(names: nil, wall: Self.wall).isEmpty)
    try replace(dir, "active.json") { $0.replacingOccurrences(of: "2000000871234560", with: "2000000999999999") }
    let changes = try store.refresh(names: nil, wall: Self.wall)
    #expect(changes.upserts.map(\.file) == ["active.json"])
    #expect(try store.get("active.json")?.originalTransactionId == "2000000999999999")
    // inotify names the file: only that one is looked at.
    try replace(dir, "refunded.json") { $0.replacingOccurrences(of: "510001873462915", with: "510001873460000") }
    #expect(try store.refresh(names: ["refunded.json"], wall: Self.wall).upserts.map(\.file) == ["refunded.json"])
  }

  @Test func newAndDeletedFiles() throws {
    let dir = try freshDirectory()
    let store = try DirectoryStore(directory: dir)
    _ = try store.refresh(names: nil, wall: Self.wall)
    try FileManager.default.copyItem(atPath: dir + "/active.json", toPath: dir + "/zz-new.json")
    try FileManager.default.removeItem(atPath: dir + "/refunded.json")
    let changes = try store.refresh(names: nil, wall: Self.wall)
    #expect(changes.upserts.map(\.file) == ["zz-new.json"])
    #expect(changes.removed == ["refunded.json"])
    #expect(try store.get("refunded.json") == nil)
    #expect(try store.refresh(names: ["active.json", "gone.json"], wall: Self.wall).isEmpty)
  }

  /// A first open of a large directory takes seconds: the list draws a bar from these counts.
  @Test func aFirstOpenReportsItsProgressUpToEveryFile() throws {
    let dir = try freshDirectory()
    let store = try DirectoryStore(directory: dir)
    var seen: [(done: Int, total: Int)] = []
    let changes = try store.refresh(names: nil, wall: Self.wall) { done, total in seen.append((done, total)) }
    #expect(!seen.isEmpty)
    #expect(seen.last.map { $0.done == changes.upserts.count && $0.total == changes.upserts.count } == true)
    #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.done < $1.done })
    // Nothing to read: nothing to report.
    seen = []
    _ = try store.refresh(names: nil, wall: Self.wall) { done, total in seen.append((done, total)) }
    #expect(seen.isEmpty)
  }

  @Test func deletingOrDamagingTheIndexLosesNothing() throws {
    let dir = try freshDirectory()
    let store = try DirectoryStore(directory: dir)
    _ = try store.refresh(names: nil, wall: Self.wall)
    let before = byFile(try store.list())
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: dir + "/.subdash-index.sqlite" + suffix) }
    let again = try DirectoryStore(directory: dir)
    _ = try again.refresh(names: nil, wall: Self.wall)
    #expect(byFile(try again.list()) == before)
    // Garbage where the index was: rebuilt from the files, no error.
    try Data("not a database, just bytes".utf8).write(to: URL(fileURLWithPath: dir + "/other-index.sqlite"))
    let damaged = try DirectoryStore(directory: dir, indexPath: dir + "/other-index.sqlite")
    _ = try damaged.refresh(names: nil, wall: Self.wall)
    #expect(byFile(try damaged.list()) == before)
    #expect(byFile(try damaged.rebuild(wall: Self.wall)) == before)
  }

  /// Time is an input: a stored row whose expiry has passed is derived again at the later
  /// moment although its file did not change (±1 ms around expiresDate).
  @Test func aRowIsDerivedAgainOnceItsMomentOfChangePasses() throws {
    let dir = try freshDirectory()
    let state = try StateFile.load(path: dir + "/auto-renew-off.json")
    let expires = try #require(state.subscriber.latestTransaction?.expiresDate)
    let index = dir + "/time-index.sqlite"
    _ = try DirectoryStore(directory: dir, indexPath: index, nowOverride: expires - .millisecond).refresh(names: nil, wall: Self.wall)
    let before = try DirectoryStore(directory: dir, indexPath: index, nowOverride: expires - .millisecond)
    #expect(try before.refresh(names: nil, wall: Self.wall).isEmpty)
    #expect(try before.get("auto-renew-off.json")?.status == .active)
    let after = try DirectoryStore(directory: dir, indexPath: index, nowOverride: expires)
    let changes = try after.refresh(names: nil, wall: Self.wall)
    #expect(changes.upserts.map(\.file).contains("auto-renew-off.json"))
    #expect(try after.get("auto-renew-off.json")?.status == .expired)
  }

  /// A row derived at its file's own simulated clock changes only when the file does: the wall
  /// clock passing its renewal date must not make every open read it again.
  @Test func aRowOnItsFilesSimulatedClockIsNeverDueByTheWallClock() throws {
    let dir = try freshDirectory()
    let late = Instant(ms: 4_000_000_000_000)  // 2096: every Example's dates have passed
    _ = try DirectoryStore(directory: dir).refresh(names: nil, wall: late)
    let rows = try DirectoryStore(directory: dir).list()
    #expect(rows.contains { $0.simulatedNow != nil && ($0.changesAt.map { $0 < late } ?? false) })
    #expect(try DirectoryStore(directory: dir).refresh(names: nil, wall: late).isEmpty)
  }

  @Test func anUnreadableDirectoryIsAOneLineErrorNamingIt() throws {
    let store = try DirectoryStore(directory: "/nonexistent-subdash-dir", indexPath: FileManager.default.temporaryDirectory.path + "/idx-\(UUID().uuidString).sqlite")
    #expect {
      try store.refresh(names: nil, wall: Self.wall)
    } throws: { error in
      "\(error)".hasPrefix("/nonexistent-subdash-dir: cannot read the directory") && !"\(error)".contains("\n")
    }
  }
}
