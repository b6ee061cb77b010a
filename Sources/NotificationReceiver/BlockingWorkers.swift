import Foundation

/// Threads for a receiver's blocking file work: waiting for a subscriber's lock, fsync, rename.
///
/// Not Swift's cooperative pool (one thread per core: a blocked write would stall every request)
/// and not Dispatch's global queues either: on Linux these run about one worker per core and add
/// more only slowly when workers block, so under load two or three saves ran at a time while the
/// rest queued behind their fsyncs (measured: 2–3 worker threads busy with 32 requests in flight).
/// A fixed set of threads, first come first served, lets the disk waits of several saves overlap.
final class BlockingWorkers: @unchecked Sendable {
  /// Measured with 32 senders (docs/benchmarks.md): 8 threads gave the lowest p99 on ext4 with a
  /// journal (32–36 ms) and as much throughput as 16 or 32; with more, saves in one directory
  /// contend longer for its lock (creating and renaming files take it), and the tail grows.
  static let shared = BlockingWorkers(threads: 8)

  private let condition = NSCondition()
  private var jobs: [@Sendable () -> Void] = []
  private var next = 0

  init(threads: Int) {
    for k in 0..<max(1, threads) {
      let thread = Thread { [self] in work() }
      thread.name = "subdash-file-\(k)"
      thread.start()
    }
  }

  /// Runs `body` on one of the threads and returns its result.
  func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      submit { continuation.resume(with: Result { try body() }) }
    }
  }

  /// Jobs the queue holds, run or not (what the compaction bounds); for tests.
  var storedJobCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return jobs.count
  }

  private func submit(_ job: @escaping @Sendable () -> Void) {
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  private func work() {
    while true {
      condition.lock()
      while next == jobs.count { condition.wait() }
      let job = jobs[next]
      next += 1
      // Taken jobs are dropped as the queue is read, not only when it empties: under steady
      // load it may never empty, and each job holds a request's body and decoded payloads.
      if next == jobs.count {
        jobs.removeAll(keepingCapacity: true)
        next = 0
      } else if next >= 64 && next * 2 >= jobs.count {
        jobs.removeFirst(next)
        next = 0
      }
      condition.unlock()
      job()
    }
  }
}
