import Foundation
import Testing

@testable import DashModel

#if canImport(Glibc)
import Glibc
#endif

/// Another process holding a subscriber's lock, for tests that check a writer takes it: the
/// writer runs on its own thread while the lock is held and must not have written; once the lock
/// is let go it finishes.
enum HeldLock {
  /// Runs `write` while `<path>.lock` is held by another descriptor (as another process would),
  /// checks that nothing reached `path` meanwhile (`unchanged` says what "nothing" is), lets go,
  /// and returns what the write then did.
  static func writerWaits<T: Sendable>(for path: String, unchanged: @escaping () -> Bool, _ write: @escaping @Sendable () -> T) throws -> T {
    let fd = open(path + ".lock", O_RDWR | O_CREAT, 0o600)
    try #require(fd >= 0)
    try #require(flock(fd, LOCK_EX) == 0)
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<T>()
    Thread.detachNewThread {
      box.value = write()
      done.signal()
    }
    // Long enough for an unlocked write to have happened many times over.
    let finishedWhileHeld = done.wait(timeout: .now() + .milliseconds(300)) == .success
    let untouched = unchanged()
    flock(fd, LOCK_UN)
    close(fd)
    if finishedWhileHeld { done.signal() }
    #expect(!finishedWhileHeld, "the writer did not wait for the lock")
    #expect(untouched, "the file changed while another process held its lock")
    try #require(done.wait(timeout: .now() + .seconds(10)) == .success, "the writer did not finish after the lock was let go")
    return try #require(box.value)
  }

  /// `writerWaits` for an async writer, without blocking a thread: the writer runs as a task while
  /// this one sleeps, so it cannot be starved of the cooperative pool's threads (two on a 2-core
  /// machine) by this test blocking one and another test the other. The writer's own wait for the
  /// lock is bounded (`FileLock.maxWait`).
  static func asyncWriterWaits<T: Sendable>(for path: String, unchanged: @escaping @Sendable () -> Bool,
                                            _ write: @escaping @Sendable () async -> T) async throws -> T {
    let fd = open(path + ".lock", O_RDWR | O_CREAT, 0o600)
    try #require(fd >= 0)
    try #require(flock(fd, LOCK_EX) == 0)
    let finished = ResultBox<Bool>()
    let writer = Task {
      let value = await write()
      finished.value = true
      return value
    }
    // Long enough for an unlocked write to have happened many times over.
    try await Task.sleep(for: .milliseconds(300))
    let finishedWhileHeld = finished.value == true
    let untouched = unchanged()
    flock(fd, LOCK_UN)
    close(fd)
    #expect(!finishedWhileHeld, "the writer did not wait for the lock")
    #expect(untouched, "the file changed while another process held its lock")
    return await writer.value
  }

  /// The bytes at `path` now (nil: no file), to compare against after the held lock.
  static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
}

final class ResultBox<T>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: T?
  var value: T? {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}

/// The repository's Examples (the demo subscriber is Examples/active.json).
enum Examples {
  static let dir = Sim.repoRoot.appendingPathComponent("Examples").path
  static func text(_ name: String) throws -> String { try String(contentsOfFile: dir + "/" + name, encoding: .utf8) }
}
