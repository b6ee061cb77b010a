import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `map` on every core, results in input order, for pure work on large inputs (a 10,000-entry
/// journal, a window of import pages). Each index is computed exactly once by one thread.
enum OrderedParallelMap {
  static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

  /// `transform` of each element; one thread when there is one core or fewer than `minimum`.
  static func map<T, R>(_ input: [T], minimum: Int = 2, _ transform: @Sendable (T) -> R) -> [R] where T: Sendable, R: Sendable {
    let workers = min(cores, input.count)
    guard workers > 1, input.count >= minimum else { return input.map(transform) }
    let results = UnsafeMutableBufferPointer<R?>.allocate(capacity: input.count)
    results.initialize(repeating: nil)
    defer { results.deinitialize(); results.deallocate() }
    let slots = ResultSlots(buffer: results)
    // Contiguous runs, one per worker: neighbours share cache lines and the output is joined in order.
    let run = (input.count + workers - 1) / workers
    DispatchQueue.concurrentPerform(iterations: workers) { w in
      for i in (w * run)..<min(input.count, (w + 1) * run) { slots.buffer[i] = transform(input[i]) }
    }
    return results.compactMap { $0 }  // every slot was written
  }
}

private struct ResultSlots<R>: @unchecked Sendable { let buffer: UnsafeMutableBufferPointer<R?> }
