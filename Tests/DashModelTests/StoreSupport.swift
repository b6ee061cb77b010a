import Foundation
import Testing

@testable import DashModel
@testable import CoreValues

#if canImport(Glibc)
import Glibc
#endif
@testable import SubscriberStorage

/// Another process holding a subscriber's lock, for tests that check a writer takes it: the
/// writer runs on its own thread while the lock is held and must not have written; once the lock
/// is let go it finishes.
enum HeldLock {
  /// Another holder of `path`'s lock: a `FileLock` of its own. The lock is an open-file-description
  /// lock on `path`'s byte of `DIR/.subdash.lock` (`FileLock.offset(of:)`), which belongs to the
  /// open file, not the process, so a second holder in this process conflicts exactly as another
  /// process's would. Let go once, from any thread (`release`, or when the holder goes away).
  final class Holder: @unchecked Sendable {
    private let guardLock = NSLock()
    private var held: FileLock?

    init(_ path: String) throws {
      held = try FileLock(for: path, wait: .tryOnce)
    }

    func release() { guardLock.withLock { held = nil } }
  }

  /// Takes `path`'s lock as another process would (it must be free).
  static func hold(_ path: String) throws -> Holder { try Holder(path) }

  /// Runs `write` while `path`'s lock is held by another holder (as another process would),
  /// checks that nothing reached `path` meanwhile (`unchanged` says what "nothing" is), lets go,
  /// and returns what the write then did.
  static func writerWaits<T: Sendable>(for path: String, unchanged: @escaping () -> Bool, _ write: @escaping @Sendable () -> T) throws -> T {
    let holder = try hold(path)
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<T>()
    Thread.detachNewThread {
      box.value = write()
      done.signal()
    }
    // Long enough for an unlocked write to have happened many times over.
    let finishedWhileHeld = done.wait(timeout: .now() + .milliseconds(300)) == .success
    let untouched = unchanged()
    holder.release()
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
    let holder = try hold(path)
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
    holder.release()
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
