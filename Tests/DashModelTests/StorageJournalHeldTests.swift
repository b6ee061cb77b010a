import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// An import or a notification asks the journal which of its transactions and notifications it
/// already holds, on every write: `Journal.held` answers by searching the bytes and decoding only
/// the lines a key occurs in, and must answer exactly as a full read of the history does.
@Suite("Storage: what the journal already holds")
struct StorageJournalHeldTests {
  typealias Kit = StorageJournalIndexTests

  /// A journal of `range`'s renewals (transaction, then its notification), committed whole.
  static func journal(_ range: Range<Int>, in dir: TempDir) -> (path: String, committed: Int64) {
    let bytes = Journal.encode(Kit.history(range))
    return (dir.write("s.journal.jsonl", bytes), Int64(bytes.count))
  }

  @Test func heldKeysAreFoundAndNewOnesAreNot() throws {
    let dir = TempDir()
    let (path, committed) = Self.journal(0..<500, in: dir)
    let asked = HistoryKeys(transactionIds: ["2000", "2250", "2499", "2500", "9999"], notificationUUIDs: ["uuid-0", "uuid-499", "uuid-500"])
    let held = try Journal.held(asked, path: path, committedBytes: committed)
    #expect(held == HistoryKeys(transactionIds: ["2000", "2250", "2499"], notificationUUIDs: ["uuid-0", "uuid-499"]))
  }

  @Test func aKeyOfTheOtherKindOrInAnotherFieldIsNotHeld() throws {
    let dir = TempDir()
    // Every transaction names "2000" as its originalTransactionId, and notification "uuid-7" is a
    // notification's key, not a transaction's: neither makes a transaction with that id held.
    let (path, committed) = Self.journal(1..<10, in: dir)
    let held = try Journal.held(HistoryKeys(transactionIds: ["2000", "uuid-7"], notificationUUIDs: ["2005"]), path: path, committedBytes: committed)
    #expect(held.isEmpty)
  }

  @Test func theEntryCountsWhereverItIsNotTheFirstLineTheKeyIsIn() throws {
    let dir = TempDir()
    // Transactions 2001 and 2002 name "2000" as their original; transaction 2000 itself comes last.
    let bytes = Journal.encode(Kit.history(1..<3) + [.transaction(Kit.transaction(0))])
    let path = dir.write("s.journal.jsonl", bytes)
    #expect(try Journal.held(HistoryKeys(transactionIds: ["2000"]), path: path, committedBytes: Int64(bytes.count)) == HistoryKeys(transactionIds: ["2000"]))
  }

  /// The same pseudo-random keys every run, so a failure can be run again.
  struct SeededKeys: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state
    }
  }

  @Test func itAgreesWithAFullReadOfTheHistory() throws {
    let dir = TempDir()
    let (path, committed) = Self.journal(0..<300, in: dir)
    let all = try Journal.readAll(path: path, committedBytes: committed)
    var random = SeededKeys(state: 23)
    for _ in 0..<50 {
      let asked = HistoryKeys(transactionIds: Set((0..<4).map { _ in "\(1990 + Int.random(in: 0..<330, using: &random))" }),
                              notificationUUIDs: Set((0..<4).map { _ in "uuid-\(Int.random(in: -5..<320, using: &random))" }))
      #expect(try Journal.held(asked, path: path, committedBytes: committed) == asked.held(in: all))
    }
  }

  @Test func onlyTheCommittedLengthCounts() throws {
    let dir = TempDir()
    let first = Journal.encode(Kit.history(0..<3))
    // A crashed writer's line past the committed length is not history yet.
    let path = dir.write("s.journal.jsonl", first + Journal.encode(Kit.history(3..<4)))
    let held = try Journal.held(HistoryKeys(transactionIds: ["2002", "2003"], notificationUUIDs: ["uuid-3"]), path: path, committedBytes: Int64(first.count))
    #expect(held == HistoryKeys(transactionIds: ["2002"]))
  }

  @Test func aDamagedLineHoldingTheKeyIsTheFullReadsErrorWithItsLine() throws {
    let dir = TempDir()
    var bytes = Journal.encode(Kit.history(0..<3))
    // Line 3 (transaction 2001) loses its closing brace.
    var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    lines[2].removeLast()
    bytes = Array(lines.joined(separator: [0x0A]))
    let path = dir.write("s.journal.jsonl", bytes)
    #expect {
      try Journal.held(HistoryKeys(transactionIds: ["2001"]), path: path, committedBytes: Int64(bytes.count))
    } throws: { error in
      let e = error as? StateFileError
      return e?.line == 3 && e?.message.hasPrefix("damaged history entry") == true
    }
  }

  @Test func manyKeysAtOnceAreLookedUpByOneFullRead() throws {
    let dir = TempDir()
    let (path, committed) = Self.journal(0..<50, in: dir)
    // A whole history imported again asks for every key: one search each would cost more than one read.
    let asked = HistoryKeys(transactionIds: Set((1990..<2060).map(String.init)), notificationUUIDs: Set((40..<60).map { "uuid-\($0)" }))
    #expect(asked.transactionIds.count > Journal.searchedKeysLimit)
    let held = try Journal.held(asked, path: path, committedBytes: committed)
    #expect(held.transactionIds == Set((2000..<2050).map(String.init)))
    #expect(held.notificationUUIDs == Set((40..<50).map { "uuid-\($0)" }))
  }

  @Test func aKeySpelledWithAnEscapeOrAsTheKelvinSignIsStillFound() throws {
    let dir = TempDir()
    var escaped = Kit.transaction(1)
    escaped.transactionId = "placeholder-1"
    var kelvin = Kit.transaction(2)
    kelvin.transactionId = "\u{212A}7"
    // "1" written as \u0031, as a hand or another tool may write it; SubDash's writer never does.
    let text = String(decoding: Journal.encode([.transaction(escaped), .transaction(kelvin)]), as: UTF8.self)
      .replacingOccurrences(of: "\"placeholder-1\"", with: "\"\\u0031\"")
    let bytes = Array(text.utf8)
    let path = dir.write("s.journal.jsonl", bytes)
    #expect(Journal.spellsAPrintableCharacterAsAnEscape(bytes[...]))
    // A backslash escaped is the text "\u0031", no escape; one more backslash before it, and it is one again.
    #expect(!Journal.spellsAPrintableCharacterAsAnEscape(Array(#"{"a":"\\u0031"}"#.utf8)[...]))
    #expect(Journal.spellsAPrintableCharacterAsAnEscape(Array(#"{"a":"\\\u0031"}"#.utf8)[...]))
    #expect(!Journal.spellsAPrintableCharacterAsAnEscape(Array(#"{"a":"\u001b\u00e9"}"#.utf8)[...]))
    #expect(!Journal.isPlainKey("K7"))
    #expect(try Journal.held(HistoryKeys(transactionIds: ["1"]), path: path, committedBytes: Int64(bytes.count)) == HistoryKeys(transactionIds: ["1"]))
    // Swift takes "K7" and "\u{212A}7" as the same string, and so does a full read of the history.
    let plain = Journal.encode([.transaction(kelvin)])
    let kelvinPath = dir.write("k.journal.jsonl", plain)
    #expect(try Journal.held(HistoryKeys(transactionIds: ["K7"]), path: kelvinPath, committedBytes: Int64(plain.count)) == HistoryKeys(transactionIds: ["K7"]))
  }

  @Test func aKeyWithCharactersJSONCouldSpellTwoWaysIsLookedUpByAFullRead() throws {
    let dir = TempDir()
    var t = Kit.transaction(1)
    t.transactionId = "id/with\"quote é"
    let bytes = Journal.encode([.transaction(t), .notification(Kit.notification(1))])
    let path = dir.write("s.journal.jsonl", bytes)
    #expect(!Journal.isPlainKey(t.transactionId ?? ""))
    let held = try Journal.held(HistoryKeys(transactionIds: ["id/with\"quote é", "2001"]), path: path, committedBytes: Int64(bytes.count))
    #expect(held == HistoryKeys(transactionIds: ["id/with\"quote é"]))
  }

  @Test func aStoredSubscribersSnapshotAnswersFromItsJournal() throws {
    let dir = TempDir()
    let store = DirectorySubscriberStore(directory: dir.path)
    let name = "2000.json"
    let history = Kit.history(0..<200)
    var doc = StoreDirectoryTests.newSubscriber("2000").document
    doc["subscriber"] = .object(JSONObject([("latestTransaction", Kit.transaction(199).json)]))
    let made = store.update(name, wait: .bounded) { (_) throws(StateFileError) -> SubscriberEdit in
      .create(NewSubscriber(document: doc, history: history, message: "seeded"))
    }
    guard case .created = made else { Issue.record("not created: \(made)"); return }
    // The importer's question, through the snapshot the store hands a writer.
    let snapshot = try #require(try store.get(name))
    #expect(try snapshot.held(HistoryKeys(transactionIds: ["2150", "2200"], notificationUUIDs: ["uuid-199", "uuid-200"]))
            == HistoryKeys(transactionIds: ["2150"], notificationUUIDs: ["uuid-199"]))
    // The store answers from the journal's bytes, not from a full read: a line damaged since, which
    // holds none of the keys asked, is not read (a full read would refuse the whole history).
    let journal = dir.path + "/" + Journal.defaultName(for: name)
    var bytes = try #require(FileManager.default.contents(atPath: journal).map(Array.init))
    let firstLineEnd = try #require(bytes.firstIndex(of: 0x0A))
    bytes[firstLineEnd - 1] = UInt8(ascii: "x")
    try Data(bytes).write(to: URL(fileURLWithPath: journal))
    #expect(throws: StateFileError.self) { try snapshot.history() }
    #expect(try snapshot.held(HistoryKeys(transactionIds: ["2150"])) == HistoryKeys(transactionIds: ["2150"]))
  }
}
