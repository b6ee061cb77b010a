import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// The dashboard reaches every event of a long history by pages: `JournalIndex` knows where each
/// line is, so a page (and `G`, the oldest page) reads only that page, and growing the journal
/// indexes only what was appended.
@Suite("Storage: journal index and event log")
struct StorageJournalIndexTests {
  static func notification(_ k: Int, type: NotificationType = .didRenew, summary: String? = nil) -> NotificationRecord {
    NotificationRecord(type: type, uuid: "uuid-\(k)", signedDate: Instant(ms: 1_767_983_534_000 + Double(k) * 60_000), status: .active,
                       summary: summary ?? "renewal #\(k)")
  }

  static func transaction(_ k: Int) -> TransactionPayload {
    var t = TransactionPayload()
    t.transactionId = "\(2000 + k)"
    t.originalTransactionId = "2000"
    t.productId = "pass.monthly"
    t.purchaseDate = Instant(ms: 1_767_983_534_000 + Double(k) * 60_000)
    return t
  }

  /// Renewals as SubDash journals them: each transaction, then its notification.
  static func history(_ range: Range<Int>) -> [Journal.Entry] {
    range.flatMap { [Journal.Entry.transaction(transaction($0)), .notification(notification($0))] }
  }

  @Test func everyNotificationIsReachableByPositionNewestFirst() throws {
    let dir = TempDir()
    let bytes = Journal.encode(Self.history(0..<300))
    let path = dir.write("s.journal.jsonl", bytes)
    var index = JournalIndex()
    try index.extend(path: path, committedBytes: Int64(bytes.count))
    #expect(index.notificationLines.count == 300)
    #expect(index.transactionLines.count == 300)
    #expect(try index.notifications(0..<3, path: path).map(\.notificationUUID) == ["uuid-0", "uuid-1", "uuid-2"])
    #expect(try index.notifications(298..<400, path: path).map(\.notificationUUID) == ["uuid-298", "uuid-299"])
    #expect(try index.transactions(5..<6, path: path).map(\.transactionId) == ["2005"])
  }

  @Test func growingTheJournalIndexesOnlyWhatWasAppended() throws {
    let dir = TempDir()
    let first = Journal.encode(Self.history(0..<10))
    let path = dir.write("s.journal.jsonl", first)
    var index = JournalIndex()
    try index.extend(path: path, committedBytes: Int64(first.count))
    // Appended bytes: if the scan started again at 0, this garbage first line would be re-read;
    // overwrite it after indexing to prove the old part is not read a second time.
    let more = Journal.encode(Self.history(10..<12))
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(more))
    try handle.seek(toOffset: 0)
    try handle.write(contentsOf: Data("X".utf8))  // damages line 1 in place, same file
    try handle.close()
    try index.extend(path: path, committedBytes: Int64(first.count + more.count))
    #expect(index.notificationLines.count == 12)
    #expect(try index.notifications(10..<12, path: path).map(\.notificationUUID) == ["uuid-10", "uuid-11"])
  }

  @Test func anotherJournalRenamedOverItIsIndexedAgain() throws {
    let dir = TempDir()
    let long = Journal.encode(Self.history(0..<20))
    let path = dir.write("s.journal.jsonl", long)
    var index = JournalIndex()
    try index.extend(path: path, committedBytes: Int64(long.count))
    let other = Journal.encode(Self.history(100..<103))
    let replacement = dir.write("new.jsonl", other)
    #expect(rename(replacement, path) == 0)
    try index.extend(path: path, committedBytes: Int64(other.count))
    #expect(try index.notifications(0..<10, path: path).map(\.notificationUUID) == ["uuid-100", "uuid-101", "uuid-102"])
  }

  @Test func aLineWrittenOtherwiseIsDecodedToLearnItsKindAndADamagedOneIsReported() throws {
    let dir = TempDir()
    let odd = Array(#"  { "notification": {"notificationType":"TEST","notificationUUID":"odd"} }"#.utf8) + [0x0A]
    let bytes = Journal.encode(Self.history(0..<2)) + odd
    let path = dir.write("s.journal.jsonl", bytes)
    var index = JournalIndex()
    try index.extend(path: path, committedBytes: Int64(bytes.count))
    #expect(try index.notifications(0..<3, path: path).map(\.notificationUUID) == ["uuid-0", "uuid-1", "odd"])

    let damaged = Journal.encode(Self.history(0..<2)) + Array("oops\n".utf8)
    let path2 = dir.write("d.journal.jsonl", damaged)
    var index2 = JournalIndex()
    #expect(throws: StateFileError.self) { try index2.extend(path: path2, committedBytes: Int64(damaged.count)) }
  }

  @Test func onlyTheCommittedBytesAreIndexed() throws {
    let dir = TempDir()
    let committed = Journal.encode(Self.history(0..<4))
    let path = dir.write("s.journal.jsonl", committed + Array(#"{"notification":{"notificationType":"TE"#.utf8))
    var index = JournalIndex()
    try index.extend(path: path, committedBytes: Int64(committed.count))
    #expect(index.notificationLines.count == 4)
  }

  /// A state file whose journal holds `n` renewals and whose inline log holds `inline` older ones.
  static func stateFile(in dir: TempDir, journal n: Int, inline: Int = 0) throws -> (path: String, state: SubscriptionState) {
    let bytes = Journal.encode(Self.history(inline..<(inline + n)))
    _ = dir.write("s.journal.jsonl", bytes)
    var journal = JournalInfo(file: "s.journal.jsonl")
    journal.committedBytes = Int64(bytes.count)
    journal.summary.notificationCount = n
    var state = Sim().state
    state.document.journal = journal
    state.document.subscriber.notifications = (0..<inline).map { Self.notification($0) }
    return (dir.file("s.json"), state)
  }

  @Test func theLogPagesAcrossTheJournalAndTheInlineLogNewestFirst() throws {
    let dir = TempDir()
    let (path, state) = try Self.stateFile(in: dir, journal: 100, inline: 5)
    var log = EventLog()
    try log.update(state, statePath: path)
    #expect(log.count == 105)
    #expect(try log.page(0..<2).map(\.notificationUUID) == ["uuid-104", "uuid-103"])
    // The oldest page: what `G` shows. It crosses from the journal into the inline log.
    #expect(try log.page(98..<105).map(\.notificationUUID) == ["uuid-6", "uuid-5", "uuid-4", "uuid-3", "uuid-2", "uuid-1", "uuid-0"])
    #expect(try log.page(200..<300).isEmpty)
  }

  @Test func searchFindsTheNextMatchInEitherDirectionAndWraps() throws {
    let dir = TempDir()
    let (path, state) = try Self.stateFile(in: dir, journal: 50, inline: 3)
    var log = EventLog()
    try log.update(state, statePath: path)
    let wanted: Set<String> = ["uuid-40", "uuid-10", "uuid-1"]  // positions 12, 42, 51
    let match = { (n: NotificationRecord) in wanted.contains(n.notificationUUID ?? "") }
    #expect(try log.search(from: 0, forward: true, prefilter: Array("uuid".utf8), matches: match) == 12)
    #expect(try log.search(from: 12, forward: true, prefilter: nil, matches: match) == 42)
    #expect(try log.search(from: 42, forward: true, prefilter: nil, matches: match) == 51)
    #expect(try log.search(from: 51, forward: true, prefilter: nil, matches: match) == 12)  // wraps to the newest
    #expect(try log.search(from: 12, forward: false, prefilter: nil, matches: match) == 51)  // wraps to the oldest
    #expect(try log.search(from: 51, forward: false, prefilter: nil, matches: match) == 42)
    // A prefilter that no line holds finds nothing in the journal without decoding it.
    #expect(try log.search(from: 0, forward: true, prefilter: Array("zzz".utf8), matches: match) == 51)
    #expect(try log.search(from: 0, forward: true, prefilter: nil, matches: { _ in false }) == nil)
  }
}
