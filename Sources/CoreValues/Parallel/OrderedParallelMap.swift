import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `map` on every core, results in input order, for pure work on large inputs (a 10,000-entry
/// journal, a window of import pages). Each index is computed exactly once by one thread.
package enum OrderedParallelMap {
  /// Read once per process: glibc answers `_SC_NPROCESSORS_ONLN` by opening, reading and closing
  /// /sys/devices/system/cpu/online each time, and every parse asked (its default argument), so a
  /// receiver spent 7 % of its CPU in those syscalls (perf, `listen` under 32 senders).
  package static let cores: Int = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

  /// `transform` of each element; one thread when there is one core or fewer than `minimum`.
  package static func map<T, R>(_ input: [T], minimum: Int = 2, _ transform: @Sendable (T) -> R) -> [R] where T: Sendable, R: Sendable {
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

  /// `transform` of each index in `0..<count`, the nils left out, in index order (what
  /// `(0..<count).compactMap(transform)` gives), on `workers` threads from `minimum` on.
  ///
  /// The result is allocated once and filled in place: copying per-thread arrays into one cost
  /// more than the second core saved (a 100,000-entry history). Each thread initializes its own
  /// contiguous range, packed to the range's front; the ranges are then slid down over the gaps
  /// the nils left (a move of the values' bytes, no retain or release) and the packed length
  /// becomes the array's count, so every element below it is initialized and none above it.
  package static func compactMap<R>(count: Int, minimum: Int, workers: Int = cores, _ transform: @Sendable (Int) -> R?) -> [R] where R: Sendable {
    let workers = min(workers, count)
    guard workers > 1, count >= minimum else {
      var out: [R] = []
      out.reserveCapacity(count)
      for k in 0..<count { if let r = transform(k) { out.append(r) } }
      return out
    }
    let run = (count + workers - 1) / workers
    let filled = UnsafeMutableBufferPointer<Int>.allocate(capacity: workers)
    filled.initialize(repeating: 0)
    defer { filled.deallocate() }
    return Array(unsafeUninitializedCapacity: count) { buffer, initializedCount in
      initializedCount = 0
      // A capacity of at least two always has storage; without it nothing is written.
      guard let base = buffer.baseAddress else { return }
      let shared = PackedRanges(base: base, filled: filled)
      DispatchQueue.concurrentPerform(iterations: workers) { w in
        // Clamped: with more workers than needed the last ranges are empty.
        let start = min(count, w * run)
        var next = start
        for k in start..<min(count, start + run) {
          if let r = transform(k) { (shared.base + next).initialize(to: r); next += 1 }
        }
        shared.filled[w] = next - start
      }
      // concurrentPerform has returned: every range is written and its length published.
      var end = filled[0]
      for w in 1..<workers where filled[w] > 0 {
        // The regions may overlap; moveInitialize copies in the safe direction.
        if end != w * run { (base + end).moveInitialize(from: base + w * run, count: filled[w]) }
        end += filled[w]
      }
      initializedCount = end
    }
  }
}

extension OrderedParallelMap {
  /// `transform` of each index in `0..<count`, in index order, on `workers` threads (contiguous
  /// ranges, one each); the error is the one of the lowest index that fails, which is what a loop
  /// in order throws: every range below the first failing one was read whole.
  package static func map<R, E>(count: Int, workers: Int = cores, _ transform: @Sendable (Int) throws(E) -> R) throws(E) -> [R] where R: Sendable, E: Error {
    let workers = min(workers, count)
    guard workers > 1 else {
      var out: [R] = []
      out.reserveCapacity(count)
      for k in 0..<count { out.append(try transform(k)) }
      return out
    }
    let run = (count + workers - 1) / workers
    let written = UnsafeMutableBufferPointer<Int>.allocate(capacity: workers)
    written.initialize(repeating: 0)
    defer { written.deallocate() }
    let failures = Failures<E>(workers)
    let out = [R](unsafeUninitializedCapacity: count) { buffer, initializedCount in
      initializedCount = 0
      guard let base = buffer.baseAddress else { return }
      let shared = PackedRanges(base: base, filled: written)
      DispatchQueue.concurrentPerform(iterations: workers) { w in
        let start = min(count, w * run)
        for k in start..<min(count, start + run) {
          do throws(E) {
            (shared.base + k).initialize(to: try transform(k))
            shared.filled[w] += 1
          } catch {
            failures.set(w, error)
            return
          }
        }
      }
      // concurrentPerform has returned: each range's written prefix is published.
      if failures.first != nil {
        for w in 0..<workers where written[w] > 0 { (base + w * run).deinitialize(count: written[w]) }
        return
      }
      initializedCount = count
    }
    if let error = failures.first { throw error }
    return out
  }

  /// The error each worker stopped at: one slot per worker, written by that worker only, read
  /// after all have ended (separate memory, not one array that two threads would modify).
  private final class Failures<E: Error>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<E?>
    init(_ workers: Int) {
      slots = .allocate(capacity: workers)
      slots.initialize(repeating: nil)
    }
    deinit {
      slots.deinitialize()
      slots.deallocate()
    }
    func set(_ w: Int, _ error: E) { slots[w] = error }
    /// The lowest worker's: its range comes first.
    var first: E? { slots.lazy.compactMap { $0 }.first }
  }
}

private struct PackedRanges<R>: @unchecked Sendable {
  let base: UnsafeMutablePointer<R>
  let filled: UnsafeMutableBufferPointer<Int>
}

private struct ResultSlots<R>: @unchecked Sendable { let buffer: UnsafeMutableBufferPointer<R?> }

extension OrderedParallelMap {
  /// `first` on this thread and `second` on another core at the same time; both results once both
  /// are done, each error kept apart so a caller can give the one reading them in turn would give.
  /// The second is never nil after the wait (optional only for its type). Not a wait on anything
  /// outside: `second` reads values the caller holds.
  package static func both<A, B, E: Error>(_ first: () throws(E) -> A, alsoOnAnotherCore second: @escaping @Sendable () throws(E) -> B)
    -> (Result<A, E>, Result<B, E>?) where B: Sendable {
    let other = Slot<B, E>()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
      do throws(E) { other.result = .success(try second()) } catch { other.result = .failure(error) }
    }
    let mine: Result<A, E>
    do throws(E) { mine = .success(try first()) } catch { mine = .failure(error) }
    group.wait()
    return (mine, other.result)  // always set: the group was waited on
  }

  /// The other core's result: written by its task, read after the group is waited on.
  private final class Slot<B, E: Error>: @unchecked Sendable { var result: Result<B, E>? }
}
