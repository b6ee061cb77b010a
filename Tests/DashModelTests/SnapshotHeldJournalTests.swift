import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// A database row's subscriber: its journal is bytes in memory, not a file. Its snapshot must
/// answer exactly as the same subscriber's snapshot from a directory does, and decode the history
/// only when asked for.
@Suite("A subscriber whose journal is held in memory")
struct SnapshotHeldJournalTests {
  typealias Kit = StorageJournalIndexTests

  /// The same subscriber twice: from a directory (journal file) and from its bytes in memory.
  static func both(journal n: Int, extraBytes: [UInt8] = []) throws -> (file: SubscriberSnapshot, memory: SubscriberSnapshot, dir: TempDir) {
    let dir = TempDir()
    let (_, state) = try Kit.stateFile(in: dir, journal: n)
    let bytes = Journal.encode(Kit.history(0..<n))
    let fromFile = DirectorySubscriberStore(directory: dir.path).snapshot("s.json", state)
    let fromMemory = SubscriberSnapshot(name: "s.json", state: state, journal: (name: "s.journal.jsonl", bytes: bytes + extraBytes))
    return (fromFile, fromMemory, dir)
  }

  @Test func theHistoryAndWhatItHoldsAreTheSameAsFromTheJournalFile() throws {
    // The directory is removed with its TempDir: kept until the file's snapshot has been read.
    let (file, memory, dir) = try Self.both(journal: 200)
    defer { withExtendedLifetime(dir) {} }
    #expect(try memory.history() == file.history())
    #expect(try memory.history().count == 400)
    let asked = HistoryKeys(transactionIds: ["2000", "2199", "2200"], notificationUUIDs: ["uuid-5", "uuid-200"])
    #expect(try memory.held(asked) == file.held(asked))
    #expect(try memory.held(asked) == HistoryKeys(transactionIds: ["2000", "2199"], notificationUUIDs: ["uuid-5"]))
  }

  @Test func bytesPastTheCommittedLengthAreNotHistory() throws {
    // What a crashed writer left after the last committed entry, stored with the row.
    let torn = Array(#"{"notification":{"notificationUUID":"uuid-torn""#.utf8)
    let (_, memory, _) = try Self.both(journal: 3, extraBytes: torn)
    #expect(try memory.history().count == 6)
    #expect(try memory.held(HistoryKeys(notificationUUIDs: ["uuid-torn"])).isEmpty)
  }

  @Test func aShortJournalIsAnErrorOnlyWhenTheHistoryIsAskedFor() throws {
    let dir = TempDir()
    let (_, state) = try Kit.stateFile(in: dir, journal: 10)
    let bytes = Journal.encode(Kit.history(0..<10))
    let short = SubscriberSnapshot(name: "s.json", state: state, journal: (name: "s.journal.jsonl", bytes: Array(bytes.dropLast(40))))
    #expect(short.state == state)
    #expect(throws: StateFileError.self) { try short.history() }
    do {
      _ = try short.held(HistoryKeys(transactionIds: ["2000"]))
      Issue.record("a short journal answered what it holds")
    } catch {
      #expect(error.description.contains("s.journal.jsonl") && error.description.contains("shorter than the state file says"))
    }
  }

  @Test func aJournalOfAnotherNameOrNoneIsNotTakenForTheHistory() throws {
    let dir = TempDir()
    let (_, state) = try Kit.stateFile(in: dir, journal: 10)
    let bytes = Journal.encode(Kit.history(0..<10))
    for journal in [(name: "other.journal.jsonl", bytes: bytes), nil] {
      let snapshot = SubscriberSnapshot(name: "s.json", state: state, journal: journal)
      #expect(throws: StateFileError.self) { try snapshot.history() }
    }
  }

  @Test func aSubscriberWithoutAJournalHasNoHistory() throws {
    let memory = SubscriberSnapshot(name: "s.json", state: Sim().state, journal: nil)
    #expect(try memory.history().isEmpty)
    #expect(try memory.held(HistoryKeys(transactionIds: ["2000"])).isEmpty)
  }

  @Test func aDamagedLineIsReportedWithItsLineNumberAsFromAFile() throws {
    let dir = TempDir()
    var (_, state) = try Kit.stateFile(in: dir, journal: 3)
    let bytes = Journal.encode(Kit.history(0..<3)) + Array("{\"notification\":7}\n".utf8)
    state.document.journal?.committedBytes = Int64(bytes.count)
    _ = dir.write("s.journal.jsonl", bytes)
    let fromFile = DirectorySubscriberStore(directory: dir.path).snapshot("s.json", state)
    let memory = SubscriberSnapshot(name: "s.json", state: state, journal: (name: "s.journal.jsonl", bytes: bytes))
    var fileError: StateFileError?, memoryError: StateFileError?
    do { _ = try fromFile.history() } catch { fileError = error }
    do { _ = try memory.history() } catch { memoryError = error }
    #expect(memoryError != nil)
    #expect(memoryError?.description == fileError?.description)
    #expect(memoryError?.line == 7)
  }
}
