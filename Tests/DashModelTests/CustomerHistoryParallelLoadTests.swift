import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// A long inline history is read on every core (`CustomerHistory.load`), into one array filled in
/// place: whatever the threads do, the history must be the one a single thread reads, entry for
/// entry, in file order, with the unreadable entries left out and counted.
@Suite("Customer history read on every core")
struct CustomerHistoryParallelLoadTests {
  /// A state file with `count` history entries, ids "0", "1", ... in order, and as many
  /// notifications; the entries at `bad` have a numeric productId (a field the summary does not
  /// read, so the file loads and the history leaves them out).
  static func state(entries count: Int, bad: Set<Int>) throws -> (state: SubscriptionState, path: String, dir: TempDir) {
    var history: [String] = []
    var log: [String] = []
    for k in 0..<count {
      let product = bad.contains(k) ? "7" : #""pass.monthly""#
      history.append(#"{ "transactionId": "\#(k)", "productId": \#(product), "purchaseDate": \#(1_767_225_600_000 + k * 60_000), "price": \#(k), "currency": "USD" }"#)
      log.append(#"{ "notificationType": "DID_RENEW", "signedDate": \#(1_767_225_600_000 + k * 60_000), "summary": "renewal \#(k)" }"#)
    }
    let text = """
      { "catalog": { "subscriptionGroups": [] },
        "subscriber": {
          "transactions": [
      \(history.joined(separator: ",\n"))
          ],
          "notifications": [
      \(log.joined(separator: ",\n"))
          ] } }
      """
    let dir = TempDir()
    let path = dir.write("state.json", text)
    return (try StateFile.load(path: path), path, dir)
  }

  @Test func aLongHistoryReadOnEveryCoreIsTheOneThreadReadingEntryForEntry() throws {
    let count = CustomerHistory.parallelFrom + 1_001
    // The first two and last two entries, one inside, and a run across the cut between two
    // threads' ranges. (On a one-core machine both reads take one thread; the fill's own test
    // below still runs several.)
    let half = (count + 1) / 2
    let bad: Set<Int> = [0, 1, 500, half - 1, half, half + 1, count - 2, count - 1]
    let file = try Self.state(entries: count, bad: bad)

    let parallel = CustomerHistory.load(file.state, statePath: file.path)
    let oneThread = CustomerHistory.load(file.state, statePath: file.path, parallelFrom: .max)

    #expect(parallel.skippedEntries == bad.count)
    #expect(firstDifference(parallel.transactions.map(\.transactionId), (0..<count).filter { !bad.contains($0) }.map { "\($0)" }) == nil)
    #expect(firstDifference(parallel.events.map(\.summary), (0..<count).map { "renewal \($0)" }) == nil)
    // Every field, the skipped count and the journal state too (a Bool: printing both
    // histories on a failure would be 40,000 entries).
    let same = parallel == oneThread
    #expect(same, "two threads read a different history than one")
  }

  @Test func aShortHistoryIsReadTheSameWay() throws {
    let bad: Set<Int> = [0, 3, 99]
    let file = try Self.state(entries: 100, bad: bad)

    let history = CustomerHistory.load(file.state, statePath: file.path)

    #expect(history == CustomerHistory.load(file.state, statePath: file.path, parallelFrom: .max))
    #expect(history.skippedEntries == 3)
    #expect(firstDifference(history.transactions.map(\.transactionId), (0..<100).filter { !bad.contains($0) }.map { "\($0)" }) == nil)
  }

  /// The in-place fill on its own, with more ranges than this machine may have cores (the
  /// threads then take turns, the result must not change): every pattern of gaps, including a
  /// range left empty, comes out packed and in order.
  @Test func theInPlaceFillPacksEveryRangeInOrderWhateverIsLeftOut() {
    let count = 1_003
    let patterns: [(String, @Sendable (Int) -> Bool)] = [
      ("none left out", { _ in true }),
      ("every third", { $0 % 3 != 0 }),
      ("the first half", { $0 >= count / 2 }),
      ("the second half", { $0 < count / 2 }),
      ("all", { _ in false }),
    ]
    for workers in [2, 3, 4, 7] {
      for (name, keep) in patterns {
        let filled = OrderedParallelMap.compactMap(count: count, minimum: 2, workers: workers) { k in keep(k) ? "entry \(k)" : nil }
        #expect(firstDifference(filled, (0..<count).filter(keep).map { "entry \($0)" }) == nil, "\(workers) workers, \(name)")
      }
    }
  }

  @Test func belowTheMinimumOneThreadReadsInOrder() {
    let calls = Calls()
    let filled = OrderedParallelMap.compactMap(count: 50, minimum: 51) { k in
      calls.record(k)
      return k
    }
    #expect(filled == Array(0..<50))
    #expect(calls.indices == Array(0..<50))
    #expect(calls.threads.count == 1)
  }
}

/// Where two lists first differ ("at 7: 8 instead of 7"), nil when they are equal: a failure
/// names the first wrong entry instead of printing 20,000 of them.
private func firstDifference<T: Equatable>(_ got: [T], _ expected: [T]) -> String? {
  for k in 0..<max(got.count, expected.count) where k >= got.count || k >= expected.count || got[k] != expected[k] {
    return "at \(k): \(k < got.count ? "\(got[k])" : "nothing") instead of \(k < expected.count ? "\(expected[k])" : "nothing")"
  }
  return nil
}

/// Which indices a transform saw, in call order, and on how many threads.
private final class Calls: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var indices: [Int] = []
  private(set) var threads: Set<UInt> = []

  func record(_ k: Int) {
    lock.lock()
    defer { lock.unlock() }
    indices.append(k)
    threads.insert(UInt(bitPattern: Int(bitPattern: pthread_self())))
  }
}

/// `OrderedParallelMap.map(count:)`: every index once, in order, and the error a loop in order
/// would throw (the lowest failing index), whatever the number of workers.
@Suite struct OrderedParallelMapTests {
  struct Failed: Error, Equatable { var index: Int }

  @Test func everyIndexInOrderOnAnyNumberOfWorkers() throws {
    for workers in [1, 2, 3, 7, 64] {
      let squares = try OrderedParallelMap.map(count: 1_000, workers: workers) { (k) throws(Failed) -> String in "\(k * k)" }
      #expect(squares == (0..<1_000).map { "\($0 * $0)" }, "\(workers) workers")
    }
    #expect(try OrderedParallelMap.map(count: 0, workers: 2) { (k) throws(Failed) -> Int in k } == [])
  }

  @Test func theErrorIsTheLowestFailingIndexes() {
    for workers in [1, 2, 3, 7] {
      for failing in [[0], [999], [400, 10], [500, 999, 501]] {
        let result = Result { () throws(Failed) -> [String] in
          try OrderedParallelMap.map(count: 1_000, workers: workers) { (k) throws(Failed) -> String in
            if failing.contains(k) { throw Failed(index: k) }
            return "value \(k)"  // a heap string: written ones must be released when another fails
          }
        }
        #expect(result.map { _ in 0 } == .failure(Failed(index: failing.min() ?? -1)), "\(workers) workers, failing at \(failing)")
      }
    }
  }
}
