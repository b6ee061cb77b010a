import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// Collects what concurrent workers report.
final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [String] = []
  func add(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
  var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}

/// The dashboard and the simulator write the same file at the same time; a crash can strike
/// between appending history and saving the document that vouches for it.
@Suite("Storage: concurrent writers and crash leftovers", .serialized)
struct StorageConcurrencyTests {
  static let base = #"{ "format": "subdash-state/1", "catalog": { "subscriptionGroups": [] }, "subscriber": { "x-counter": 0 } }"#

  /// One update: bump a counter in the document and append a notification to the history.
  static func bump(_ path: String, summary: String) throws(StateFileError) {
    try StateFile.update(path: path) { (state) throws(StateFileError) -> Change in
      var s = state
      guard case .number(let n)? = s.subscriber.source["x-counter"], let count = Int(n) else {
        throw StateFileError(file: "test", message: "counter missing")
      }
      s.document.subscriber.source["x-counter"] = .int(count + 1)
      let note = NotificationRecord(type: .test, uuid: summary, signedDate: Instant(ms: Double(count)), status: nil, summary: summary)
      return Change(state: s, notifications: [note], message: summary)
    }
  }

  @Test func twoWritersEachUpdatingTwoHundredTimesLoseNothing() throws {
    let dir = TempDir()
    let path = dir.write("shared.json", Self.base)
    let errors = Collected()
    let perWriter = 200
    DispatchQueue.concurrentPerform(iterations: 2) { writer in
      for i in 0..<perWriter {
        do { try Self.bump(path, summary: "writer \(writer) update \(i)") } catch { errors.add("\(error)") }
      }
    }
    #expect(errors.all.isEmpty, "\(errors.all.prefix(3))")

    let state = try StateFile.load(path: path)
    #expect(state.subscriber.source["x-counter"] == .int(2 * perWriter))
    // The first updates inline, the rest journaled (StateFile.inlineHistoryLimit): one history.
    #expect(state.subscriber.notifications.count == StateFile.inlineHistoryLimit)
    let journal = try #require(state.document.journal)
    #expect(journal.file == "shared.journal.jsonl")
    #expect(journal.summary.notificationCount == 2 * perWriter - StateFile.inlineHistoryLimit)
    #expect(state.historySummary.notificationCount == 2 * perWriter)
    let history = try historyEntries(path)
    let summaries = history.compactMap { entry -> String? in
      if case .notification(let n) = entry { return n.summary } else { return nil }
    }
    #expect(summaries.count == 2 * perWriter)
    let expected = (0..<2).flatMap { w in (0..<perWriter).map { "writer \(w) update \($0)" } }
    #expect(summaries.sorted() == expected.sorted())  // each exactly once
    // Each writer's own updates stay in its order.
    for w in 0..<2 {
      #expect(summaries.filter { $0.hasPrefix("writer \(w) ") } == (0..<perWriter).map { "writer \(w) update \($0)" })
    }
    // The counter each update saw is its position in the history: no update read a stale file.
    #expect(history.enumerated().allSatisfy { k, e in
      if case .notification(let n) = e { return n.signedDate == Instant(ms: Double(k)) } else { return false }
    })
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("subdash-tmp") }
    #expect(leftovers.isEmpty)
  }

  @Test func bytesACrashedWriterLeftAreIgnoredByReadersAndCutByTheNextWriter() throws {
    let dir = TempDir()
    let path = dir.write("state.json", Self.journaling("state.json"))
    try Self.bump(path, summary: "first")
    let committed = try #require(try StateFile.load(path: path).document.journal)
    let journalPath = dir.file(committed.file)
    let vouched = dir.bytes(committed.file)
    #expect(Int64(vouched.count) == committed.committedBytes)

    // A writer appended a whole line and half of another, then died before renaming the document.
    let crash = Array(#"{"notification":{"notificationType":"GHOST","summary":"never saved"}}"#.utf8) + [0x0A] + Array(#"{"notification":{"notif"#.utf8)
    let handle = try #require(FileHandle(forWritingAtPath: journalPath))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(crash))
    try handle.close()

    let state = try StateFile.load(path: path)
    #expect(try Journal.readAll(path: journalPath, committedBytes: committed.committedBytes).count == 1)
    #expect(try Journal.tail(path: journalPath, committedBytes: committed.committedBytes, limit: 10).count == 1)
    #expect(try StateFile.recentNotifications(state, statePath: path, limit: 10).map(\.summary) == ["first"])

    try Self.bump(path, summary: "second")
    let after = try #require(try StateFile.load(path: path).document.journal)
    let bytes = dir.bytes(after.file)
    #expect(Int64(bytes.count) == after.committedBytes)
    #expect(!String(decoding: bytes, as: UTF8.self).contains("GHOST"))
    #expect(Array(bytes.prefix(vouched.count)) == vouched)
    let log = try StateFile.recentNotifications(try StateFile.load(path: path), statePath: path, limit: 10)
    #expect(log.map(\.summary) == ["second", "first"])
  }

  /// The pid of a process that has ended (and been reaped), as a killed writer's would be.
  static func deadPid() throws -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/true")
    try p.run()
    p.waitUntilExit()
    return p.processIdentifier
  }

  /// Found by `scripts/kill-test.sh --simulator`: writers were cleaned up only after a completed
  /// rename, so a writer SIGKILLed during its own first save left its temporary file beside its
  /// killed predecessor's (2 leftovers at kill 122 of 200, seed 42). A save now clears dead
  /// writers' files before it creates its own, so even a save that does not complete (here the
  /// rename fails: a directory stands at the name) leaves none of theirs.
  @Test func aSaveClearsKilledWritersTemporaryFilesBeforeWritingItsOwn() throws {
    let dir = TempDir()
    try FileManager.default.createDirectory(atPath: dir.file("state.json"), withIntermediateDirectories: false)
    let dead = [try Self.deadPid(), try Self.deadPid()]
    for pid in dead { _ = dir.write(".state.json.subdash-tmp-\(pid)", "{ half a save") }
    _ = dir.write(".state.json.subdash-tmp-1", "pid 1 is alive: a save in progress")
    #expect(throws: StateFileError.self) { try AtomicWriter.write(Array("{}".utf8), to: dir.file("state.json")) }
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("subdash-tmp") }
    #expect(left == [".state.json.subdash-tmp-1"])
    #expect(dir.text(".state.json.subdash-tmp-1") == "pid 1 is alive: a save in progress")
  }

  /// A killed `subdash` writer (they all hold the lock) leaves the one fixed temporary name; the
  /// next save takes that name over, so nothing accumulates and no save reads the directory.
  @Test func aLockedSaveTakesOverAKilledLockedWritersTemporaryFile() throws {
    let dir = TempDir()
    let path = dir.write("state.json", Self.base)
    _ = dir.write(".state.json.subdash-tmp", "{ half a save")
    try Self.bump(path, summary: "after the crash")
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("subdash-tmp") }
    #expect(left.isEmpty)
    #expect(try StateFile.load(path: path).subscriber.notifications.map(\.summary) == ["after the crash"])
  }

  /// Found by CI's kill test (seed 9606): a process that had saved the file once no longer looked
  /// for leftovers, so a dashboard left open kept a killed simulator's temporary file. Every
  /// unlocked save sweeps (locked saves share one fixed name instead).
  @Test func everySaveClearsALeftoverThatAppearedAfterThisProcessSavedTheFile() throws {
    let dir = TempDir()
    let path = dir.write("state.json", "{}")
    try AtomicWriter.write(Array("{\"n\":1}".utf8), to: path)
    _ = dir.write(".state.json.subdash-tmp-\(try Self.deadPid())", "{ half a save")
    try AtomicWriter.write(Array("{\"n\":2}".utf8), to: path)
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("subdash-tmp") }
    #expect(left.isEmpty)
  }

  @Test func aJournalCutShortBySomethingElseStopsTheWriter() throws {
    let dir = TempDir()
    let path = dir.write("state.json", Self.journaling("state.json"))
    try Self.bump(path, summary: "first")
    try Self.bump(path, summary: "second")
    let journal = try #require(try StateFile.load(path: path).document.journal)
    let handle = try #require(FileHandle(forWritingAtPath: dir.file(journal.file)))
    try handle.truncate(atOffset: UInt64(journal.committedBytes - 10))
    try handle.close()
    let before = dir.bytes("state.json")
    #expect {
      try Self.bump(path, summary: "third")
    } throws: { error in
      (error as? StateFileError)?.description.hasPrefix("state.journal.jsonl: the history journal is shorter") == true
    }
    #expect(dir.bytes("state.json") == before)
  }
}
