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
