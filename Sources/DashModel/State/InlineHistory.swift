import CoreValues
/// A subscriber's inline history (`subscriber.transactions`): the entries as the file wrote them,
/// oldest first, and their `HistorySummary`, folded once when the file is read.
///
/// Why not `[TransactionPayload]`: a hand-made or exported file can carry 100,000 entries, and
/// the only thing loading needs from them is the summary (paid time, intro offer used, last
/// win-back). Typing every field of every entry was most of the load time, so loading reads just
/// the fields the summary needs, each checked with its JSON path like any other field, and keeps
/// the objects as they are (they write back byte for byte). The other fields are typed when asked
/// for, by `transaction(at:)` or `typed()`, which report a wrong type with its path then.
public struct InlineHistory: Equatable, Sendable {
  public private(set) var entries: [JSONObject]
  /// The fold of every entry, in order.
  public internal(set) var summary: HistorySummary
  /// Where the entries sit in the document (`$.subscriber.transactions`), for errors.
  public let path: JSONPath
  /// A history loaded only to be viewed holds its entries read for the story instead of as JSON
  /// (InlineHistory+Viewing.swift); `entries` is then empty.
  package var viewed: Viewed?

  package struct Viewed: Equatable, Sendable {
    /// How many entries the file holds.
    package var count: Int
    /// Those that read as story transactions, in order.
    package var story: [StoryTransaction]
  }

  public init(path: JSONPath = JSONPath.root.appending("subscriber").appending("transactions")) {
    entries = []
    summary = HistorySummary()
    self.path = path
  }

  /// Reads `key` of `r`: absent or null is empty; otherwise an array of objects whose summary
  /// fields have the right types.
  init(_ r: ObjectReader, key: String) throws(DecodeError) {
    self.init(path: r.path.appending(key))
    guard let v = r.object[key], v != .null else { return }
    guard case .array(let items) = v else { throw DecodeError(path, "expected an array, found \(v.kindName)") }
    entries.reserveCapacity(items.count)
    for k in items.indices {
      guard case .object(let o) = items[k] else {
        throw DecodeError(path.appending(k), "expected an object, found \(items[k].kindName)")
      }
      try summary.add(ObjectReader(o, in: path, index: k))
      entries.append(o)
    }
  }

  /// What a file loaded only to be viewed keeps of its inline entries: the fields the summary
  /// and the story read (the dashboard, `DashboardSession`). The signature is what every App Store
  /// transaction has and a notification record has not.
  public static let viewingProjection = JSONProjection(
    arrayPath: ["subscriber", "transactions"],
    keep: viewedFields,
    signature: viewedSignature)

  /// `viewingProjection`, with each entry read as a story transaction while the file is parsed
  /// (InlineHistory+Viewing.swift): for `show` (`StateFile.loadForViewing`), which derives the
  /// story at once. The dashboard keeps `viewingProjection`: it draws its first screen before it
  /// reads the story, and reading the entries in the parse delayed that screen (100,000 entries:
  /// 242 -> 370 ms; docs/benchmarks.md, "Sixth pass").
  public static let storyProjection = JSONProjection(
    arrayPath: ["subscriber", "transactions"],
    keep: viewedFields,
    signature: viewedSignature,
    reader: ViewedEntriesReader())

  private static let viewedFields = Array(Set(HistorySummary.fieldsRead + StoryTransaction.fieldsRead)).sorted()
  private static let viewedSignature = ["originalTransactionId", "transactionId", "purchaseDate"]

  public var count: Int { viewed?.count ?? entries.count }
  public var isEmpty: Bool { count == 0 }

  /// Entry `k`, typed.
  public func transaction(at k: Int) throws(DecodeError) -> TransactionPayload {
    try TransactionPayload(ObjectReader(entries[k], in: path, index: k))
  }

  /// Every entry, typed, oldest first.
  public func typed() throws(DecodeError) -> [TransactionPayload] {
    var out: [TransactionPayload] = []
    out.reserveCapacity(entries.count)
    for k in entries.indices { out.append(try transaction(at: k)) }
    return out
  }

  /// Each entry's `transactionId` (entries without one left out), checked to be a string: what an
  /// import asks on every write ("which of these does the subscriber hold?"), without typing
  /// every field of every entry as `typed()` does.
  public func transactionIds() throws(DecodeError) -> [String] {
    var out: [String] = []
    out.reserveCapacity(entries.count)
    for k in entries.indices {
      switch entries[k]["transactionId"] {
      case nil, .null?: continue
      case .string(let id)?: out.append(id)
      case let other?: throw DecodeError(path.appending(k).appending("transactionId"), "expected a string, found \(other.kindName)")
      }
    }
    return out
  }

  /// Adds a transaction at the end (newest).
  public mutating func append(_ t: TransactionPayload) {
    summary.add(t)
    if case .object(let o) = t.json { entries.append(o) }
  }

  public var json: JSON { .array(entries.map(JSON.object)) }

  /// Forgets the entries and keeps their summary (see `SubscriptionState.forViewing()`).
  mutating func dropEntriesKeepingSummary() {
    entries = []
    viewed = nil
  }

  public static func == (a: InlineHistory, b: InlineHistory) -> Bool { a.entries == b.entries && a.viewed == b.viewed }
}
