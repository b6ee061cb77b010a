import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// A writer saving event after event (the simulator) takes the lock back the moment it lets go.
/// Another writer waiting for it (a dashboard key) must still get its turn, promptly, and never
/// run into the `.busy` bound just because the first one never paused.
@Suite("Storage: a writer that never pauses cannot starve another", .serialized, .timeLimit(.minutes(1)))
struct StorageLockFairnessTests {
  /// Saves back to back on its own thread, each holding the lock for a few milliseconds (about
  /// what an fsync'd save takes), until told to stop.
  final class BusyWriter: @unchecked Sendable {
    private let stopped = NSLock()
    private var stop = false
    private var count = 0
    private let done = DispatchSemaphore(value: 0)

    init(_ path: String) {
      Thread.detachNewThread { [self] in
        while !self.shouldStop {
          if let lock = try? FileLock(for: path) {
            usleep(4_000)
            withExtendedLifetime(lock) {}
            self.stopped.lock(); self.count += 1; self.stopped.unlock()
          }
        }
        self.done.signal()
      }
    }

    private var shouldStop: Bool { stopped.lock(); defer { stopped.unlock() }; return stop }
    var saves: Int { stopped.lock(); defer { stopped.unlock() }; return count }

    /// Stops the loop and waits for the thread to leave it (it holds the lock for milliseconds).
    func finish() -> Int {
      stopped.lock(); stop = true; stopped.unlock()
      done.wait()
      return saves
    }
  }

  @Test func aWaitingWriterGetsTheLockWhileAnotherSavesBackToBack() throws {
    let dir = TempDir()
    let path = dir.write("busy.json", StorageConcurrencyTests.base)
    let writer = BusyWriter(path)
    // Let the busy writer get going before the first wait.
    let started = ContinuousClock.now
    while writer.saves < 3 && ContinuousClock.now - started < .seconds(10) { usleep(1_000) }

    let bound: Duration = .seconds(2)
    var waits: [Duration] = []
    var refusals: [String] = []
    let savesBefore = writer.saves
    for _ in 0..<20 {
      usleep(4_000)  // a key press now and then, not back to back
      let asked = ContinuousClock.now
      do {
        let lock = try FileLock(for: path, wait: .upTo(bound))
        waits.append(ContinuousClock.now - asked)
        withExtendedLifetime(lock) {}
      } catch {
        refusals.append(error.description)
      }
    }
    let saves = writer.finish() - savesBefore
    #expect(refusals.isEmpty, "starved: \(refusals.count) of 20 waits ran into the \(bound) bound")
    #expect(saves >= 5, "the busy writer did not keep saving in between (\(saves) saves)")
    // Each wait is about one of the busy writer's saves; far below the bound even on a busy machine.
    #expect((waits.max() ?? .zero) < bound / 2, "longest wait \(waits.max() ?? .zero)")
  }
}
