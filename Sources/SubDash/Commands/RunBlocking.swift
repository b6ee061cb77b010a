import Dispatch

/// Runs async work (X509's Verifier is async) from synchronous code: the root command, and the
/// importer's `SignedDataChecking`, which DashModel keeps synchronous.
///
/// The work runs on its own dispatch queue, not Swift's cooperative pool. Waiting on a semaphore
/// while the task needed a pool thread deadlocked as soon as the caller itself sat on that pool
/// (parallel tests on a 2-core machine have exactly two such threads, all of them waiting).
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
  let box = BlockingBox<T>()
  let done = DispatchSemaphore(value: 0)
  Task(executorPreference: BlockingWorkExecutor.shared) {
    box.value = await body()
    done.signal()
  }
  done.wait()
  return box.value!
}

/// Carries the result out of the task; the semaphore orders the write before the read.
private final class BlockingBox<T>: @unchecked Sendable { var value: T? }

/// A task executor on a private serial queue, whose threads are never the cooperative pool's.
private final class BlockingWorkExecutor: TaskExecutor {
  static let shared = BlockingWorkExecutor()
  private let queue = DispatchQueue(label: "subdash.blocking-work")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}
