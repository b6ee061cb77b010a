#if os(Linux)
import Foundation
import Glibc
import Testing


/// The receiver's store saves an existing subscriber by swapping in one of the directory's kept
/// spares (no new inode per save, and one spare per concurrent save, not per subscriber): still
/// whole versions only, never bytes changed under a reader, never a write through whatever was
/// planted at the spare's name.
@Suite("Store: a receiver's saves swap in a kept spare", .serialized)
struct SpareFileSwapTests {
  static let base = StorageConcurrencyTests.base
  /// The directory's first spare: the one a save alone uses.
  static let spare = ".subdash-spare-0"

  /// The store `listen` writes through.
  static func receiverStore(_ dir: TempDir) -> DirectorySubscriberStore {
    var store = DirectorySubscriberStore(directory: dir.path)
    store.keepsSpareFiles = true
    return store
  }

  /// One notification: the counter goes up by one and the history gets one entry.
  static func save(_ store: DirectorySubscriberStore, _ summary: String, to name: String = "s.json") throws {
    let result = store.update(existing: name, wait: .bounded) { (state) throws(StateFileError) -> SubscriberEdit in
      var s = state
      guard case .number(let n)? = s.subscriber.source["x-counter"], let count = Int(n) else {
        throw StateFileError(file: name, message: "counter missing")
      }
      s.document.subscriber.source["x-counter"] = .int(count + 1)
      let note = NotificationRecord(type: .test, uuid: summary, signedDate: Instant(ms: Double(count)), status: nil, summary: summary)
      return .save(Change(state: s, notifications: [note], message: summary))
    }
    guard case .applied = result else { throw StateFileError(file: name, message: "not saved: \(result)") }
  }

  static func counter(_ path: String) throws -> JSON? { try StateFile.load(path: path).subscriber.source["x-counter"] }

  static func inode(_ path: String) -> ino_t? {
    var st = stat()
    return lstat(path, &st) == 0 ? st.st_ino : nil
  }

  @Test func savingTheSameSubscriberAgainAndAgainUsesTwoFilesInTurn() throws {
    let dir = TempDir()
    let path = dir.write("s.json", Self.base)
    chmod(path, 0o640)  // a team's shared file keeps its mode, in both files
    let store = Self.receiverStore(dir)
    var inodes: Set<ino_t> = []
    for k in 1...20 {
      let before = dir.bytes("s.json")
      try Self.save(store, "n\(k)")
      inodes.insert(try #require(Self.inode(path)))
      // The spare is the version just replaced, whole: a reader or a crash only ever meets whole versions.
      #expect(dir.bytes(Self.spare) == before)
    }
    #expect(inodes.count == 2)
    #expect(try Self.counter(path) == .int(20))
    #expect(try StateFile.load(path: path).historySummary.notificationCount == 20)
    #expect(try historyEntries(path).count == 20)
    for name in ["s.json", Self.spare] {
      var st = stat()
      #expect(lstat(dir.file(name), &st) == 0 && st.st_mode & 0o777 == 0o640, "\(name)")
    }
  }

  @Test func aReaderHoldingAReplacedVersionKeepsReadingItsBytes() throws {
    let dir = TempDir()
    let path = dir.write("s.json", Self.base)
    let store = Self.receiverStore(dir)
    // A reader (a dashboard, `show`) opens the file and is slow to read it.
    let reader = open(path, O_RDONLY)
    #expect(reader >= 0)
    defer { close(reader) }
    try Self.save(store, "first")  // the reader's file is now the spare
    try Self.save(store, "second")  // and would be rewritten next, were it not open
    try Self.save(store, "third")
    var bytes = [UInt8](repeating: 0, count: 4096)
    let n = pread(reader, &bytes, bytes.count, 0)
    #expect(Array(bytes.prefix(max(0, n))) == Array(Self.base.utf8))
    #expect(try Self.counter(path) == .int(3))
  }

  @Test func aMappedReplacedVersionIsNotRewrittenEither() throws {
    let dir = TempDir()
    let path = dir.write("s.json", Self.base)
    let store = Self.receiverStore(dir)
    try Self.save(store, "first")
    let mapped = try #require(FileHandle(forReadingAtPath: path))
    let data = try #require(try mapped.readToEnd())
    let fd = open(path, O_RDONLY)
    let length = data.count
    let map = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0)
    close(fd)  // only the mapping holds the file now
    try mapped.close()
    #expect(map != MAP_FAILED)
    defer { munmap(map, length) }
    try Self.save(store, "second")
    try Self.save(store, "third")
    let seen = Array(UnsafeRawBufferPointer(start: map, count: length))
    #expect(seen == Array(data))
    #expect(try Self.counter(path) == .int(3))
  }

  /// A save killed between writing the spare and swapping it in leaves half a version in the
  /// spare: the file itself is untouched and the next save writes over the half.
  @Test func aSaveKilledWhileWritingTheSpareLeavesTheFileWholeAndTheNextSaveGoesOn() throws {
    let dir = TempDir()
    let path = dir.write("s.json", Self.base)
    let store = Self.receiverStore(dir)
    try Self.save(store, "first")
    try Self.save(store, "second")
    let whole = dir.bytes("s.json")
    _ = dir.write(Self.spare, "{ half a save")
    #expect(dir.bytes("s.json") == whole)
    #expect(try Self.counter(path) == .int(2))
    try Self.save(store, "after the crash")
    #expect(try Self.counter(path) == .int(3))
    #expect(dir.bytes(Self.spare) == whole)
    let entries = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    #expect(entries == [Self.spare, ".subdash.lock", "s.json"])  // a young history is inline: no journal
  }

  @Test func whatIsPlantedAtTheSparesNameIsNeverWrittenThrough() throws {
    let dir = TempDir()
    let path = dir.write("s.json", Self.base)
    let victim = dir.write("victim.txt", "not SubDash's")
    let store = Self.receiverStore(dir)
    try Self.save(store, "first")

    unlink(dir.file(Self.spare))
    #expect(symlink(victim, dir.file(Self.spare)) == 0)
    try Self.save(store, "past a symbolic link")

    unlink(dir.file(Self.spare))
    #expect(link(victim, dir.file(Self.spare)) == 0)
    try Self.save(store, "past a second name of another file")

    unlink(dir.file(Self.spare))
    #expect(mkfifo(dir.file(Self.spare), 0o600) == 0)
    try Self.save(store, "past a FIFO, without waiting on it")

    #expect(dir.text("victim.txt") == "not SubDash's")
    #expect(try Self.counter(path) == .int(4))
    var st = stat()
    #expect(lstat(dir.file(Self.spare), &st) == 0 && st.st_mode & S_IFMT == S_IFREG && st.st_nlink == 1)
  }

  /// A dashboard key (a plain locked save) in the same directory saves through its own temporary
  /// file and leaves the directory's spare alone; the receiver's next save goes on from there.
  @Test func aPlainSaveInTheSameDirectoryAndTheReceiversSwapTakeTurns() throws {
    let dir = TempDir()
    let path = dir.write("s.json", Self.base)
    let store = Self.receiverStore(dir)
    try Self.save(store, "receiver 1")
    let spare = dir.bytes(Self.spare)
    try StorageConcurrencyTests.bump(path, summary: "dashboard")
    #expect(dir.bytes(Self.spare) == spare)
    #expect(!FileManager.default.fileExists(atPath: dir.file(".s.json.subdash-tmp")))
    try Self.save(store, "receiver 2")
    #expect(try Self.counter(path) == .int(3))
    let summaries = try historyEntries(path).compactMap { e -> String? in
      if case .notification(let n) = e { return n.summary } else { return nil }
    }
    #expect(summaries == ["receiver 1", "dashboard", "receiver 2"])
  }

  /// A spare is the directory's: subscribers saved in turn pass one spare around (it holds the
  /// version each save replaced), so their saves make no file beyond their own.
  @Test func subscribersSavedInTurnShareOneSpare() throws {
    let dir = TempDir()
    let names = (0..<5).map { "s\($0).json" }
    for name in names { dir.write(name, Self.base) }
    let store = Self.receiverStore(dir)
    var inodes: Set<ino_t> = []
    for round in 1...6 {
      for name in names {
        let before = dir.bytes(name)
        try Self.save(store, "\(name) \(round)", to: name)
        #expect(dir.bytes(Self.spare) == before, "\(name) \(round)")
        for n in names + [Self.spare] { inodes.insert(try #require(Self.inode(dir.file(n)))) }
      }
    }
    // The five files and the one spare: the same six inodes from the first round to the last.
    #expect(inodes.count == 6)
    let entries = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    #expect(entries == [Self.spare, ".subdash.lock"] + names)
    for name in names {
      #expect(try Self.counter(dir.file(name)) == .int(6))
      #expect(try historyEntries(dir.file(name)).count == 6)
    }
  }

  /// A spare claimed by a save in progress (another writer, another process) is never written by a
  /// second save at the same time: that one claims the next slot. With every slot claimed the save
  /// is the plain one, and still saved.
  @Test func aClaimedSpareIsLeftToItsSave() throws {
    let dir = TempDir()
    let path = dir.write("s.json", Self.base)
    let store = Self.receiverStore(dir)
    try Self.save(store, "first")
    let spare0 = dir.bytes(Self.spare)
    // Another writer, mid-save of another subscriber, holds slot 0.
    let other = try FileLock(for: dir.file("other.json"))
    #expect(other.claimSpareSlot() == 0)
    try Self.save(store, "while slot 0 is claimed")
    #expect(dir.bytes(Self.spare) == spare0)
    #expect(FileManager.default.fileExists(atPath: dir.file(".subdash-spare-1")))
    // Every slot claimed (a writer claims one at a time): a plain save, which leaves the spares as they are.
    var holders: [FileLock] = []
    while true {
      let writer = try FileLock(for: dir.file("o\(holders.count).json"))
      guard writer.claimSpareSlot() != nil else { break }
      holders.append(writer)
    }
    #expect(holders.count == FileLock.spareSlotCount - 1)
    let spare1 = dir.bytes(".subdash-spare-1")
    try Self.save(store, "every slot claimed")
    #expect(dir.bytes(Self.spare) == spare0 && dir.bytes(".subdash-spare-1") == spare1)
    #expect(try Self.counter(path) == .int(3))
    // Let go (a writer that finished), slot 0 is the next save's again.
    other.releaseSpareSlot(0)
    let before = dir.bytes("s.json")
    try Self.save(store, "slot 0 free again")
    #expect(dir.bytes(Self.spare) == before)
    #expect(try Self.counter(path) == .int(4))
  }

  /// Without the receiver's choice, a locked save is the plain one: no file is kept beside it.
  @Test func otherWritersKeepNoSpare() throws {
    let dir = TempDir()
    let path = dir.write("s.json", Self.base)
    try Self.save(DirectorySubscriberStore(directory: dir.path), "plain")
    let entries = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    #expect(entries == [".subdash.lock", "s.json"])
    #expect(try Self.counter(path) == .int(1))
  }
}
#endif
@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// Saves waiting for a directory fsync at the same time share one.
@Suite("Store: one directory fsync for the saves waiting at once")
struct DirectorySyncTests {
  /// Every waiter returns (none is left waiting on a broadcast it missed) and no save costs more
  /// than its own fsync. How many are shared depends on the scheduler, so it is not asserted.
  @Test func concurrentSavesAllReturnWithNoMoreFsyncsThanSaves() async {
    let dir = TempDir()
    let sync = DirectorySync(directory: dir.path)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask { for _ in 0..<50 { sync.sync() } }
      }
    }
    #expect(sync.fsyncs >= 1 && sync.fsyncs <= 400)
  }

  @Test func oneSaveAloneMakesItsOwnFsyncEachTime() {
    let dir = TempDir()
    let sync = DirectorySync(directory: dir.path)
    for _ in 0..<3 { sync.sync() }
    #expect(sync.fsyncs == 3)
  }

  @Test func theReceiversManyWritersLoseNothing() async throws {
    let dir = TempDir()
    var store = DirectorySubscriberStore(directory: dir.path)
    store.keepsSpareFiles = true
    for s in 0..<4 { dir.write("s\(s).json", StorageConcurrencyTests.base) }
    let errors = Collected()
    let writers = store
    await withTaskGroup(of: Void.self) { group in
      for w in 0..<8 {
        group.addTask {
          for i in 0..<25 {
            let name = "s\((w + i) % 4).json"
            let result = writers.update(existing: name, wait: .bounded) { (state) throws(StateFileError) -> SubscriberEdit in
              var s = state
              guard case .number(let n)? = s.subscriber.source["x-counter"], let count = Int(n) else {
                throw StateFileError(file: name, message: "counter missing")
              }
              s.document.subscriber.source["x-counter"] = .int(count + 1)
              let note = NotificationRecord(type: .test, uuid: "w\(w)-\(i)", signedDate: Instant(ms: Double(count)), status: nil, summary: "w\(w)-\(i)")
              return .save(Change(state: s, notifications: [note], message: "w\(w)-\(i)"))
            }
            if case .applied = result {} else { errors.add("\(name): \(result)") }
          }
        }
      }
    }
    #expect(errors.all.isEmpty, "\(errors.all.prefix(3))")
    var total = 0
    for s in 0..<4 {
      let state = try StateFile.load(path: dir.file("s\(s).json"))
      guard case .number(let n)? = state.subscriber.source["x-counter"], let count = Int(n) else { Issue.record("s\(s)"); continue }
      #expect(try historyEntries(dir.file("s\(s).json")).count == count)
      total += count
    }
    #expect(total == 200)
  }
}
