import Foundation
import Testing

@testable import DashModel
@testable import CoreValues

#if canImport(Glibc)
import Glibc
#endif
@testable import SubscriberStorage

/// Another process (any local user who can open the lock file) holds a subscriber's lock: a
/// save waits for it at most `FileLock.maxWait`, then says the file is locked, having changed
/// nothing. A lock released within the bound is waited for, as before.
@Suite("Storage: a held lock is waited for only so long", .serialized, .timeLimit(.minutes(1)))
struct StorageLockWaitTests {
  /// What another process does: a lock of its own on the file's byte of `DIR/.subdash.lock`
  /// (`HeldLock.Holder`: the lock belongs to the open file, so a second holder conflicts exactly
  /// as another process's would).
  static func holdLock(of path: String) throws -> HeldLock.Holder {
    try HeldLock.hold(path)
  }

  static func release(_ holder: HeldLock.Holder) {
    holder.release()
  }

  @Test func aSaveGivesUpAfterTheBoundSaysTheFileIsLockedAndChangesNothing() throws {
    let dir = TempDir()
    let path = dir.write("held.json", StorageConcurrencyTests.base)
    let holder = try Self.holdLock(of: path)
    defer { Self.release(holder) }
    let started = ContinuousClock.now
    var failure: StateFileError?
    do { try StorageConcurrencyTests.bump(path, summary: "while locked") } catch { failure = error }
    let waited = ContinuousClock.now - started
    let error = try #require(failure)
    #expect(error.kind == .busy)
    #expect(error.description == "held.json: locked by another process for more than 5 s (.subdash.lock); nothing was changed")
    // At least the bound, and not until the holder lets go (not to the second: the whole suite
    // runs in parallel on two cores).
    #expect(waited >= FileLock.maxWait && waited < FileLock.maxWait + .seconds(10), "waited \(waited)")
    #expect(dir.text("held.json") == StorageConcurrencyTests.base)
    #expect(!FileManager.default.fileExists(atPath: dir.file("held.journal.jsonl")))
  }

  @Test func tryingOnceAnswersAtOnce() throws {
    let dir = TempDir()
    let path = dir.write("held.json", StorageConcurrencyTests.base)
    let holder = try Self.holdLock(of: path)
    defer { Self.release(holder) }
    let started = ContinuousClock.now
    #expect {
      try StateFile.update(path: path, lockWait: .tryOnce) { (s) throws(StateFileError) in Change(state: s, message: "x") }
    } throws: { ($0 as? StateFileError)?.kind == .busy }
    #expect(ContinuousClock.now - started < FileLock.maxWait, "tried once, not waited for the bound")
  }

  @Test func aLockReleasedWithinTheBoundIsWaitedForAndTheSaveHappens() throws {
    let dir = TempDir()
    let path = dir.write("brief.json", StorageConcurrencyTests.base)
    let holder = try Self.holdLock(of: path)
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(300)) { Self.release(holder) }
    try StorageConcurrencyTests.bump(path, summary: "after the release")
    #expect(try StateFile.load(path: path).subscriber.source["x-counter"] == .int(1))
  }

  /// The server's variant waits without a thread, and gives up after the same bound.
  @Test func aServerSaveGivesUpAfterTheBoundWithoutBlocking() async throws {
    let dir = TempDir()
    let path = dir.write("served.json", StorageConcurrencyTests.base)
    let holder = try Self.holdLock(of: path)
    defer { Self.release(holder) }
    let started = ContinuousClock.now
    var kind: StateFileError.Kind?
    do {
      try await StateFile.updateWithoutBlocking(path: path, refusing: StateFileError.self) { (s) throws(StateFileError) in Change(state: s, message: "x") }
    } catch {
      if case .file(let e) = error { kind = e.kind }
    }
    #expect(kind == .busy)
    let waited = ContinuousClock.now - started
    #expect(waited >= FileLock.maxWait - .milliseconds(200) && waited < FileLock.maxWait + .seconds(2), "waited \(waited)")
    #expect(dir.text("served.json") == StorageConcurrencyTests.base)
  }

  /// Another program takes the lock as `FileLock` documents: a classic record lock (`fcntl`, as
  /// Python's `fcntl.lockf(fd, LOCK_EX, 1, offset)` takes) on one byte of `DIR/.subdash.lock` at
  /// `FileLock.offset(of: name)`. Classic and open-file-description locks conflict, even within one
  /// process, so a save of that file finds it locked, while a save of another file (another byte)
  /// goes on. A classic lock is the process's and goes when the process closes any descriptor of
  /// the file (as every `FileLock` here does when it lets go), so it is taken again before each try.
  @Test func anotherProgramsRecordLockOnTheFilesByteIsHonoured() throws {
    let dir = TempDir()
    let path = dir.write("held.json", StorageConcurrencyTests.base)
    let neighbour = dir.write("neighbour.json", StorageConcurrencyTests.base)
    let fd = open(dir.file(".subdash.lock"), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    try #require(fd >= 0)
    defer { close(fd) }
    func recordLock(_ type: Int32) -> Bool {
      var range = flock()
      range.l_type = Int16(type)
      range.l_whence = Int16(SEEK_SET)
      range.l_start = off_t(FileLock.offset(of: "held.json"))
      range.l_len = 1
      return fcntl(fd, F_SETLK, &range) == 0
    }
    // The byte another program computes: FNV-1a (64 bits) of the name's UTF-8 bytes, low 61 bits
    // (FNV-1a of "a" is 0xaf63dc4c8601ec8c).
    #expect(FileLock.offset(of: "a") == 0x0f63_dc4c_8601_ec8c)
    #expect(FileLock.offset(of: "held.json") == 349_984_590_494_753_506)
    try #require(recordLock(F_WRLCK))
    #expect {
      try StateFile.update(path: path, lockWait: .tryOnce) { (s) throws(StateFileError) in Change(state: s, message: "x") }
    } throws: { ($0 as? StateFileError)?.kind == .busy }
    #expect(dir.text("held.json") == StorageConcurrencyTests.base)
    try #require(recordLock(F_WRLCK))
    // Tried once: a lock on the wrong byte would make this `.busy`.
    try StateFile.update(path: neighbour, lockWait: .tryOnce) { (s) throws(StateFileError) in Change(state: s, message: "another byte") }
    try #require(recordLock(F_UNLCK))
    try StorageConcurrencyTests.bump(path, summary: "after the release")
    #expect(try StateFile.load(path: path).subscriber.source["x-counter"] == .int(1))
  }
}
