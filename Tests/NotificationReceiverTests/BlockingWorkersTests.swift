import Foundation
import Testing
@testable import NotificationReceiver

/// The receiver's threads for blocking file work: every job runs once, results and errors come
/// back to the awaiting request, and several jobs block at the same time (as saves waiting on
/// fsync do) without holding the others up.
@Suite struct BlockingWorkersTests {
  struct Refused: Error, Equatable { let k: Int }

  @Test func everyJobRunsOnceAndAnswersItsOwnCaller() async throws {
    let workers = BlockingWorkers(threads: 4)
    let answers = try await withThrowingTaskGroup(of: Int.self) { group in
      for k in 0..<500 {
        group.addTask {
          try await workers.run { k * 2 }
        }
      }
      return try await group.reduce(into: [Int]()) { $0.append($1) }
    }
    #expect(answers.sorted() == (0..<500).map { $0 * 2 })
  }

  @Test func aThrowingJobThrowsToItsCallerAndTheThreadsGoOn() async throws {
    let workers = BlockingWorkers(threads: 2)
    await #expect(throws: Refused(k: 7)) { try await workers.run { () throws -> Int in throw Refused(k: 7) } }
    #expect(try await workers.run { 41 + 1 } == 42)
  }

  /// Under steady load the queue never empties; jobs already taken are dropped as it is read (each
  /// holds a request's body), not kept until it empties. One thread, 200 jobs queued behind a first
  /// that waits for them all: by the 150th run the queue holds far fewer than 200 jobs.
  @Test func jobsAlreadyTakenAreDroppedWhileTheQueueIsStillBusy() async throws {
    let workers = BlockingWorkers(threads: 1)
    let gate = Gate()
    let seen = Seen()
    let first = Task { try await workers.run { gate.arriveAndWait(for: 2) } }
    try #require(await eventually(within: .seconds(10)) { gate.arrivals >= 1 }, "the one thread never took the first job")
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<200 { group.addTask { try await workers.run { seen.add(workers.storedJobCount) } } }
      #expect(await eventually(within: .seconds(10)) { workers.storedJobCount >= 200 }, "the 200 jobs were not all queued")
      #expect(gate.arriveAndWait(for: 2))
      try await group.waitForAll()
    }
    #expect(try await first.value)
    let stored = seen.all
    #expect(stored.count == 200)
    #expect(stored[149] < 120, "queue held \(stored[149]) jobs at the 150th run")
  }

  /// Four jobs that each wait until all four have started: with fewer than four threads running
  /// at once this could never finish (the wait's 10-second limit turns that into a failure).
  @Test func jobsThatBlockRunSideBySide() async throws {
    let workers = BlockingWorkers(threads: 4)
    let gate = Gate()
    let waited = try await withThrowingTaskGroup(of: Bool.self) { group in
      for _ in 0..<4 { group.addTask { try await workers.run { gate.arriveAndWait(for: 4) } } }
      return try await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    #expect(waited == [true, true, true, true])
  }

  /// Jobs arrive; each waits (up to 10 s) until `count` have arrived.
  final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var arrived = 0
    var arrivals: Int { condition.lock(); defer { condition.unlock() }; return arrived }
    func arriveAndWait(for count: Int) -> Bool {
      condition.lock()
      defer { condition.unlock() }
      arrived += 1
      condition.broadcast()
      let deadline = Date().addingTimeInterval(10)
      while arrived < count { if !condition.wait(until: deadline) { return false } }
      return true
    }
  }
}

/// What the jobs saw, in the order they ran.
final class Seen: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [Int] = []
  func add(_ v: Int) { lock.withLock { values.append(v) } }
  var all: [Int] { lock.withLock { values } }
}
