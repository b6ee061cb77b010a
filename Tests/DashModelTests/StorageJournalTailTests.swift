import Foundation
import Testing

@testable import DashModel
@testable import CoreValues

/// The dashboard shows the newest notifications of a history that may hold years of renewals, so
/// `Journal.tail` reads backwards from the committed end instead of reading the file.
@Suite("Storage: journal tail")
struct StorageJournalTailTests {
  /// Notifications whose summaries are 1 to 40,000 bytes long, so lines end on both sides of the
  /// 16 KiB chunk boundaries and some lines span several chunks.
  static func entries() -> [Journal.Entry] {
    let lengths = [1, 16_383, 2, 40_000, 16_384, 7, 16_385, 3_000, 12, 32_768, 5, 9_999, 1, 1, 20_000, 4]
    return lengths.enumerated().map { k, n in
      let text = "#\(k) " + String(repeating: Character(UnicodeScalar(UInt8(97 + k % 26))), count: n)
      return .notification(NotificationRecord(type: .test, uuid: "u\(k)", signedDate: Instant(ms: Double(k)), status: nil, summary: text))
    }
  }

  /// What identifies an entry: its UUID and its whole summary (decoded entries also keep their
  /// source object, so whole values are compared through this).
  static func keys(_ entries: [Journal.Entry]) -> [String] {
    entries.map { e in
      guard case .notification(let n) = e else { return "transaction" }
      return "\(n.notificationUUID ?? "-") \(n.summary ?? "")"
    }
  }

  @Test func theNewestEntriesInOrderForEveryLimit() throws {
    let dir = TempDir()
    let all = Self.entries()
    let bytes = Journal.encode(all)
    let path = dir.write("t.journal.jsonl", bytes)
    #expect(Self.keys(try Journal.readAll(path: path, committedBytes: Int64(bytes.count))) == Self.keys(all))
    for limit in [1, 2, 3, 4, 5, 8, 15, 16, 17, 100] {
      let tail = try Journal.tail(path: path, committedBytes: Int64(bytes.count), limit: limit)
      #expect(Self.keys(tail) == Self.keys(Array(all.suffix(limit))), "limit \(limit)")
    }
    #expect(try Journal.tail(path: path, committedBytes: Int64(bytes.count), limit: 0).isEmpty)
    #expect(try Journal.tail(path: path, committedBytes: 0, limit: 5).isEmpty)
  }

  @Test func onlyTheCommittedPartCounts() throws {
    let dir = TempDir()
    let all = Self.entries()
    let committed = Journal.encode(Array(all.prefix(10)))
    let path = dir.write("t.journal.jsonl", committed + Journal.encode(Array(all.suffix(6))))
    let tail = try Journal.tail(path: path, committedBytes: Int64(committed.count), limit: 3)
    #expect(Self.keys(tail) == Self.keys(Array(all.prefix(10).suffix(3))))
  }

  @Test func aDamagedOldEntryDoesNotStopTheTail() throws {
    // Proof that the tail never parses (or needs) the beginning: the first line is garbage.
    let dir = TempDir()
    let all = Self.entries()
    let bytes = Array("not json at all\n".utf8) + Journal.encode(all)
    let path = dir.write("t.journal.jsonl", bytes)
    #expect(Self.keys(try Journal.tail(path: path, committedBytes: Int64(bytes.count), limit: 16)) == Self.keys(all))
    #expect {
      try Journal.readAll(path: path, committedBytes: Int64(bytes.count))
    } throws: { error in
      (error as? StateFileError)?.description.hasPrefix("t.journal.jsonl:1: damaged history entry") == true
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func theCostDoesNotGrowWithTheHistory() throws {
    // 4 GiB of (sparse) older history before the newest entries: reading it would take minutes
    // and gigabytes; the tail reads a few kilobytes.
    let dir = TempDir()
    let path = dir.file("big.journal.jsonl")
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = try #require(FileHandle(forWritingAtPath: path))
    let hole: UInt64 = 4 << 30
    try handle.truncate(atOffset: hole)
    try handle.seek(toOffset: hole)
    let newest = Array(Self.entries().prefix(3))
    let tailBytes = [0x0A] + Journal.encode(newest)
    try handle.write(contentsOf: Data(tailBytes))
    try handle.close()
    let tail = try Journal.tail(path: path, committedBytes: Int64(hole) + Int64(tailBytes.count), limit: 2)
    #expect(Self.keys(tail) == Self.keys(Array(newest.suffix(2))))
  }
}
