import DashModel
import CoreValues
import Foundation
import Testing
@testable import SubDash

#if canImport(Glibc)
import Glibc
#endif
import SubscriberStorage

/// `subdash simulate`'s steps go through the subscriber store's update (the one write call): a step on a file another process
/// keeps locked waits for it and writes nothing meanwhile, then applies to the file as it is.
@Suite(.timeLimit(.minutes(1))) struct SimulateStepTakesTheLockTests {
  @Test func aSimulationStepWaitsForAHeldLockThenApplies() throws {
    let path = try DashboardSessionTests().copyOfExample("active") { _ in }
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    // Another process's lock: a `FileLock` of our own (an open-file-description lock on the file's
    // byte of `.subdash.lock`, so it conflicts exactly as another process's would).
    var holder: FileLock? = try FileLock(for: path, wait: .tryOnce)
    let done = DispatchSemaphore(value: 0)
    let stepped = Box()
    Thread.detachNewThread {
      let (store, name) = DirectorySubscriberStore.holding(path)
      let result = store.update(existing: name, wait: .upTo(.seconds(60))) { (s) throws(ActionError) in
        .saving(try Simulator.setSettings(s, [("seed", .int(42))]).get())
      }
      stepped.set(result.change != nil)
      done.signal()
    }
    let finishedWhileHeld = done.wait(timeout: .now() + .milliseconds(300)) == .success
    let untouched = try Data(contentsOf: URL(fileURLWithPath: path)) == before
    withExtendedLifetime(holder) {}
    holder = nil
    #expect(!finishedWhileHeld, "the step did not wait for the lock")
    #expect(untouched)
    try #require(done.wait(timeout: .now() + .seconds(10)) == .success)
    #expect(stepped.get())
    #expect(try Simulator.settings(StateFile.load(path: path)).seed == 42)
  }

  final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set(_ v: Bool) { lock.withLock { value = v } }
    func get() -> Bool { lock.withLock { value } }
  }
}
