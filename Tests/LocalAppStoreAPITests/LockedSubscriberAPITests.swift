import DashModel
import CoreValues
import Foundation
import Testing
@testable import LocalAppStoreAPI

#if canImport(Glibc)
import Glibc
#endif
import SubscriberStorage

/// `serve` on a subscriber whose lock another process holds: after the bound, the answer Apple
/// gives for a temporary failure (500, errorCode 5000001 "Please try again"), the file unchanged,
/// and meanwhile requests for other subscribers are answered (the wait holds no thread).
@Suite(.timeLimit(.minutes(1))) struct LockedSubscriberAPITests {
  @Test func aWriteToALockedSubscriberIsARetryable500AndOthersAreAnsweredMeanwhile() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let before = try Data(contentsOf: URL(fileURLWithPath: s.path))
    // Another process's lock: a `FileLock` of our own (an open-file-description lock on the file's
    // byte of `.subdash.lock`, so it conflicts exactly as another process's would).
    let holder = try Holder(s.path)
    // On code that waits without a bound, the holder lets go after 30 s so the test ends. The
    // bound is shown by the answer coming well before that (not to the second: the whole suite
    // runs in parallel on two cores, and a busy machine delays every answer).
    let release = Task { () -> Bool in
      do { try await Task.sleep(for: .seconds(30)) } catch { return false }
      holder.release()
      return true
    }

    let started = ContinuousClock.now
    async let write = AppAccountTokenAPITests.put(s, ServeFixture.id, #"{"appAccountToken": "\#(AppAccountTokenAPITests.token)"}"#)
    // Reads for the same server go on while the write waits.
    try await Task.sleep(for: .milliseconds(200))
    for _ in 0..<4 {
      let readStarted = ContinuousClock.now
      let r = await s.get("/sandbox/inApps/v1/subscriptions/\(ServeFixture.id)")
      #expect(r.status == 200)
      #expect(ContinuousClock.now - readStarted < .seconds(3))
    }
    let answer = await write
    let took = ContinuousClock.now - started
    #expect(answer.status == 500)
    #expect(ServeFixture.object(answer)["errorCode"] as? Int == 5_000_001)
    #expect(answer.log.contains("locked by another process for more than 5 s"), "\(answer.log)")
    #expect(took >= .seconds(4), "answered after \(took), before the lock's bound")  // the 500 itself says it gave up
    #expect(try Data(contentsOf: URL(fileURLWithPath: s.path)) == before)
    release.cancel()
    if await release.value == false {
      holder.release()
    }
  }

  /// Another process's hold on a subscriber's lock, let go once, from any thread.
  final class Holder: @unchecked Sendable {
    private let lock = NSLock()
    private var held: FileLock?
    init(_ path: String) throws { held = try FileLock(for: path, wait: .tryOnce) }
    func release() { lock.withLock { held = nil } }
  }
}
