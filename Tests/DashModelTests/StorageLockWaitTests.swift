import Foundation
import Testing

@testable import DashModel

#if canImport(Glibc)
import Glibc
#endif

/// Another process (any local user who can open the lock file) holds a subscriber's lock: a
/// save waits for it at most `FileLock.maxWait`, then says the file is locked, having changed
/// nothing. A lock released within the bound is waited for, as before.
@Suite("Storage: a held lock is waited for only so long", .serialized, .timeLimit(.minutes(1)))
struct StorageLockWaitTests {
  /// What another process does: its own descriptor on `<file>.lock`, locked (flock locks belong
  /// to the open file, so a second descriptor conflicts exactly as another process's would).
  static func holdLock(of path: String) throws -> Int32 {
    let fd = open(path + ".lock", O_RDWR | O_CREAT, 0o600)
    try #require(fd >= 0)
    try #require(flock(fd, LOCK_EX) == 0)
    return fd
  }

  static func release(_ fd: Int32) {
    flock(fd, LOCK_UN)
    close(fd)
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
    #expect(error.description == "held.json: locked by another process for more than 5 s (held.json.lock); nothing was changed")
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
}
