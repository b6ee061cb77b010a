import CoreValues
/// A history's transactions with each id's versions folded into one (the last version written),
/// by purchase date, and where a renewal-date extension moved an expiry out.
///
/// Why positions, not copies: folding used to copy each transaction's last version into a new
/// array, and the story copied them once more. For 100,000 transactions each copy was 17 MB of
/// memory touched for the first time (costly on a virtual machine) and a retain of every string.
/// The versions stay in the history's own array (shared, not copied); the fold keeps where each
/// transaction's last version is.
struct FoldedHistory: Equatable, Sendable {
  /// Every version as the history holds them, oldest first; the state's latest transaction at
  /// the end when it is not already the last version of its id (then, and only then, copied).
  private let versions: [StoryTransaction]
  /// For each folded transaction, by purchase date, the position of its last version.
  private let order: [Int]
  /// The expiry before the first extension, by folded transaction, for the extended ones only.
  private let extendedFrom: [Int: Instant]

  var count: Int { order.count }

  /// Reads the folded transactions in place (`items[k].field` copies no transaction).
  func withItems<R>(_ body: (Items) -> R) -> R {
    versions.withUnsafeBufferPointer { v in
      order.withUnsafeBufferPointer { o in body(Items(versions: v, order: o, extendedFrom: extendedFrom)) }
    }
  }

  /// The last version of folded transaction `k`, copied (for the few callers that keep one).
  subscript(k: Int) -> StoryTransaction { versions[order[k]] }

  /// Only the transactions `keep` accepts, in the same order.
  func filter(_ keep: (StoryTransaction) -> Bool) -> FoldedHistory {
    var kept: [Int] = [], extended: [Int: Instant] = [:]
    withItems { items in
      for k in items.indices where keep(items[k]) {
        if let e = items.extendedFrom(k) { extended[kept.count] = e }
        kept.append(order[k])
      }
    }
    return FoldedHistory(versions: versions, order: kept, extendedFrom: extended)
  }

  /// The folded transactions as a buffer: `items[k]` is transaction `k`'s last version.
  struct Items {
    let versions: UnsafeBufferPointer<StoryTransaction>
    let order: UnsafeBufferPointer<Int>
    private let extended: [Int: Instant]

    fileprivate init(versions: UnsafeBufferPointer<StoryTransaction>, order: UnsafeBufferPointer<Int>, extendedFrom: [Int: Instant]) {
      self.versions = versions
      self.order = order
      extended = extendedFrom
    }

    var count: Int { order.count }
    var indices: Range<Int> { 0..<order.count }
    /// A borrow of the stored version, not a copy: `items[k].purchaseDate` reads one field.
    subscript(k: Int) -> StoryTransaction {
      @inline(__always) _read { yield versions[order[k]] }
    }
    /// Where transaction `k`'s expiry was before a renewal-date extension moved it, if one did.
    func extendedFrom(_ k: Int) -> Instant? { extended.isEmpty ? nil : extended[k] }
  }
}

extension FoldedHistory {
  /// One entry per transaction id, its last version, by purchase date; an expiry a later
  /// version moved further out (same purchase, not revoked before) is a renewal-date extension.
  /// `latest` (the state's latest transaction) is read after the versions.
  init(folding history: [StoryTransaction], then latest: StoryTransaction? = nil) {
    var versions = history
    var order: [Int] = []
    var extended: [Int: Instant] = [:]
    var byId = TransactionIdIndex(expected: versions.count + 1)
    order.reserveCapacity(versions.count + 1)
    /// Folds version `p` in.
    func add(_ v: UnsafeBufferPointer<StoryTransaction>, _ p: Int) {
      guard let id = v[p].transactionId else {
        order.append(p)
        return
      }
      // One look-up of the id, whether it is new or a later version.
      guard let k = byId.claim(id, value: order.count, idOf: { v[order[$0]].transactionId }) else {
        order.append(p)
        return
      }
      let q = order[k]
      if let before = v[q].expiresDate, let after = v[p].expiresDate, after > before,
         v[q].purchaseDate == v[p].purchaseDate, v[q].revocationDate == nil, extended[k] == nil {
        extended[k] = before
      }
      order[k] = p
    }
    versions.withUnsafeBufferPointer { v in
      for p in v.indices { add(v, p) }
    }
    // The state's latest transaction is almost always the history's last version of its id
    // already: then there is nothing to fold in, and the history is not copied to append it.
    if let latest {
      let known = latest.transactionId.flatMap { id in byId.find(id, idOf: { versions[order[$0]].transactionId }) }
        .map { versions[order[$0]] == latest } ?? false
      if !known {
        versions.append(latest)
        versions.withUnsafeBufferPointer { v in add(v, v.count - 1) }
      }
    }
    versions.withUnsafeBufferPointer { v in Self.sortByPurchaseDate(&order, &extended, v) }
    self.init(versions: versions, order: order, extendedFrom: extended)
  }

  /// Stable by purchase date; undated ones keep their place at the end. A history written in
  /// purchase order (the usual case) is already that order: checked in one pass, not sorted.
  private static func sortByPurchaseDate(_ order: inout [Int], _ extended: inout [Int: Instant], _ v: UnsafeBufferPointer<StoryTransaction>) {
    var inOrder = true
    var k = 1
    while inOrder, k < order.count {
      switch (v[order[k - 1]].purchaseDate, v[order[k]].purchaseDate) {
      case let (a?, b?) where b < a: inOrder = false
      case (nil, .some): inOrder = false
      default: k += 1
      }
    }
    guard !inOrder else { return }
    let sorted = order.indices.sorted { x, y in
      switch (v[order[x]].purchaseDate, v[order[y]].purchaseDate) {
      case let (a?, b?) where a != b: return a < b
      case (.some, nil): return true
      case (nil, .some): return false
      default: return x < y
      }
    }
    var moved: [Int: Instant] = [:]
    for (to, from) in sorted.enumerated() { if let e = extended[from] { moved[to] = e } }
    order = sorted.map { order[$0] }
    extended = moved
  }
}
