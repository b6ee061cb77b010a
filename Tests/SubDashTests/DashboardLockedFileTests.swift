import DashModel
import DashView
import Foundation
import Testing
@testable import DashRuntime
@testable import SubDash

#if canImport(Glibc)
import Glibc
#endif
import CoreValues
import SubscriberStorage

/// A dashboard key on a file another process keeps locked: after the bound the status line says
/// the file is locked by another process and that nothing was changed, instead of the dashboard
/// freezing until the other process lets go.
@Suite(.timeLimit(.minutes(1))) struct DashboardLockedFileTests {
  @Test func aKeyOnALockedFileSaysWhyAndChangesNothing() throws {
    let path = try DashboardSessionTests().copyOfExample("active") { _ in }
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let session = try DashboardSession(path: path, displayName: "state.json", options: DisplayOptions(), nowOverride: nil, retryAccess: nil)
    // Another process's lock (a lock of its own on the file's byte of `.subdash.lock`).
    let holder = try Holder(path)
    // On code that waits without a bound, the holder lets go after 8 s so the test ends.
    let released = DispatchSemaphore(value: 0)
    DispatchQueue.global().asyncAfter(deadline: .now() + 8) { holder.release(); released.signal() }
    defer { released.wait() }

    let started = ContinuousClock.now
    let outcome = session.perform(.upgrade(toProductId: "pass.premium.monthly"), wall: Instant(ms: 1_800_000_000_000))
    let took = ContinuousClock.now - started
    guard case .failed(let status) = outcome else {
      Issue.record("the key went through after \(took) instead of saying the file is locked")
      return
    }
    #expect(status == "state.json: locked by another process for more than 5 s (.subdash.lock); nothing was changed")
    // No budget on `took`: the key failing (not going through when the holder lets go at 8 s)
    // with the bound's words is what shows the wait ended at the bound.
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  /// Another process's lock: a `FileLock` of our own. It is an open-file-description lock, which
  /// belongs to the open file, so it conflicts exactly as another process's would. Let go once,
  /// from any thread.
  final class Holder: @unchecked Sendable {
    private let lock = NSLock()
    private var held: FileLock?
    init(_ path: String) throws { held = try FileLock(for: path, wait: .tryOnce) }
    func release() { lock.withLock { held = nil } }
  }
}
