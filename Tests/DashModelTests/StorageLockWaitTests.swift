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

  /// The bound is a parameter (`FileLock.Wait`, the store's `lockWait`): these tests use short
  /// ones and check what they can observe (the answer, the file), never how long a loaded machine
  /// took beyond the bound itself.
  @Test func aSaveGivesUpAfterTheBoundSaysTheFileIsLockedAndChangesNothing() throws {
    let dir = TempDir()
    let path = dir.write("held.json", StorageConcurrencyTests.base)
    let holder = try Self.holdLock(of: path)
    defer { Self.release(holder) }
    let (store, name) = DirectorySubscriberStore.holding(path)
    let started = ContinuousClock.now
    let result = store.update(existing: name, wait: .upTo(.milliseconds(300))) { (s) throws(StateFileError) in .save(Change(state: s, message: "x")) }
    guard case .busy(let error) = result else { Issue.record("expected busy, got \(result)"); return }
    #expect(error.description == "held.json: locked by another process for more than 0.3 s (.subdash.lock); nothing was changed")
    #expect(ContinuousClock.now - started >= .milliseconds(300), "gave up before the bound")
    #expect(dir.text("held.json") == StorageConcurrencyTests.base)
    #expect(!FileManager.default.fileExists(atPath: dir.file("held.journal.jsonl")))
  }

  @Test func theBusyMessageSaysTheBoundInSeconds() {
    #expect(FileLock.busy("/d/held.json", after: .bounded).description
      == "held.json: locked by another process for more than 5 s (.subdash.lock); nothing was changed")
    #expect(FileLock.busy("/d/held.json", after: .tryOnce).description
      == "held.json: locked by another process right now (.subdash.lock); nothing was changed")
  }

  @Test func tryingOnceAnswersBusyWhileTheLockIsHeld() throws {
    let dir = TempDir()
    let path = dir.write("held.json", StorageConcurrencyTests.base)
    let holder = try Self.holdLock(of: path)
    defer { Self.release(holder) }
    #expect {
      try StateFile.update(path: path, lockWait: .tryOnce) { (s) throws(StateFileError) in Change(state: s, message: "x") }
    } throws: { ($0 as? StateFileError)?.description == "held.json: locked by another process right now (.subdash.lock); nothing was changed" }
    #expect(dir.text("held.json") == StorageConcurrencyTests.base)
  }

  @Test func aLockReleasedWithinTheBoundIsWaitedForAndTheSaveHappens() throws {
    let dir = TempDir()
    let path = dir.write("brief.json", StorageConcurrencyTests.base)
    let holder = try Self.holdLock(of: path)
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(300)) { Self.release(holder) }
    // A bound far past the release, so a loaded machine that runs the release late still saves.
    try StateFile.update(path: path, lockWait: .upTo(.seconds(60))) { (s) throws(StateFileError) in
      var s = s
      s.document.subscriber.source["x-counter"] = .int(1)
      return Change(state: s, message: "after the release")
    }
    #expect(try StateFile.load(path: path).subscriber.source["x-counter"] == .int(1))
  }

  /// The server's variant (the store's async `update`) waits without a thread, and gives up after
  /// the store's `lockWait`.
  @Test func aServerSaveGivesUpAfterTheBoundWithoutBlocking() async throws {
    let dir = TempDir()
    let path = dir.write("served.json", StorageConcurrencyTests.base)
    let holder = try Self.holdLock(of: path)
    defer { Self.release(holder) }
    var (store, name) = DirectorySubscriberStore.holding(path)
    store.lockWait = .milliseconds(300)
    let started = ContinuousClock.now
    let result = await store.update(name) { (current) throws(StateFileError) -> SubscriberEdit in
      guard let current else { return .leave }
      return .save(Change(state: current.state, message: "x"))
    }
    guard case .busy(let error) = result else { Issue.record("expected busy, got \(result)"); return }
    #expect(error.description.hasSuffix("locked by another process for more than 0.3 s (.subdash.lock); nothing was changed"))
    #expect(ContinuousClock.now - started >= .milliseconds(300), "gave up before the bound")
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
