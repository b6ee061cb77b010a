import CoreValues
import DashModel
import SubscriberStorage
/// Merging what all inputs hold into one subscriber, independent of input order: every choice
/// below is a total order on content, so the same inputs shuffled give the same result.
public struct ImportMerge: Sendable {
  /// History, oldest first (purchaseDate, then transactionId), one version per transactionId.
  public var transactions: [TransactionPayload]
  /// Notification log, oldest first (signedDate, then notificationUUID), one per notificationUUID.
  public var notifications: [NotificationRecord]
  public var latestTransaction: TransactionPayload?
  public var renewalInfo: RenewalInfoPayload?
  public var otherStores: [JSONObject]
  /// Each distinct (input, shape, signature, environment), sorted.
  public var sources: [Provenance]
  public var warnings: [String]

  /// Nothing to write: no transaction, renewal info, notification or other store's purchase
  /// (an API response with an empty list, inputs whose every item was skipped).
  public var isEmpty: Bool {
    transactions.isEmpty && notifications.isEmpty && latestTransaction == nil && renewalInfo == nil && otherStores.isEmpty
  }

  /// Merges items; `originalTransactionId` picks one subscriber when the inputs hold several.
  public static func merge(_ items: ImportedItems, originalTransactionId chosen: String?) throws(ImportError) -> ImportMerge {
    let subscribers = Set(items.transactions.compactMap(\.originalTransactionId)
      + items.renewalInfos.compactMap(\.originalTransactionId) + items.namedSubscribers)
    let selected: String?
    if let chosen {
      guard subscribers.contains(chosen) else {
        let found = subscribers.isEmpty ? "none names one" : "they hold " + subscribers.sorted().joined(separator: ", ")
        throw ImportError(input: "--original-transaction-id", message: "no input holds originalTransactionId \(chosen); \(found)")
      }
      selected = chosen
    } else if subscribers.count > 1 {
      throw ImportError(input: "inputs", message: "the inputs hold \(subscribers.count) subscribers (originalTransactionId \(subscribers.sorted().joined(separator: ", "))); choose one with --original-transaction-id ID")
    } else {
      selected = subscribers.first
    }
    // Items that name another subscriber are left out; items naming none (RevenueCat) stay.
    func keep(_ otid: String?) -> Bool { selected == nil || otid == nil || otid == selected }

    var byId: [String: TransactionPayload] = [:]
    byId.reserveCapacity(items.transactions.count)
    for t in items.transactions where keep(t.originalTransactionId) {
      let key = t.transactionId ?? "content:" + canonical(t.json)
      if let old = byId[key], !newerVersion(t, than: old) { continue }
      byId[key] = t
    }
    // Sorted by keys taken once, then each payload moved once: sorting the payloads themselves
    // copied and released ~30 fields per element move (7 % of a 10,000-transaction import).
    let unsorted = Array(byId.values)
    byId = [:]
    let keys = unsorted.map { (ms: $0.purchaseDate?.ms ?? 0, id: $0.transactionId ?? "") }
    let order = unsorted.indices.sorted { i, j in
      let ka = keys[i], kb = keys[j]
      if ka.ms != kb.ms { return ka.ms < kb.ms }
      if ka.id != kb.id { return ka.id < kb.id }
      return canonical(unsorted[i].json) < canonical(unsorted[j].json)
    }
    let history = order.map { unsorted[$0] }

    var byUUID: [String: NotificationRecord] = [:]
    for (n, otid) in items.notifications where keep(otid) {
      let key = n.identity ?? "content:" + canonical(n.json)
      if let old = byUUID[key], !betterNotification(n, than: old) { continue }
      byUUID[key] = n
    }
    let log = byUUID.values.sorted { a, b in
      let ka = (a.signedDate?.ms ?? 0, a.notificationUUID ?? ""), kb = (b.signedDate?.ms ?? 0, b.notificationUUID ?? "")
      return ka != kb ? ka < kb : canonical(a.json) < canonical(b.json)
    }

    var renewal: RenewalInfoPayload?
    for r in items.renewalInfos where keep(r.originalTransactionId) {
      if let old = renewal, !newerRenewal(r, than: old) { continue }
      renewal = r
    }

    let others = items.otherStores.sorted { canonical(.object($0)) < canonical(.object($1)) }
    let sources = Provenance.distinctSorted(items.sources)
    return ImportMerge(transactions: history, notifications: log, latestTransaction: latest(of: history),
                       renewalInfo: renewal, otherStores: others, sources: sources, warnings: items.warnings.sorted())
  }

  /// The current period: the latest purchaseDate among transactions the customer did not upgrade
  /// away from (each already the newest-signed version of itself); ties by signedDate, then id.
  static func latest(of history: [TransactionPayload]) -> TransactionPayload? {
    let candidates = history.contains { $0.isUpgraded != true } ? history.filter { $0.isUpgraded != true } : history
    return candidates.max { a, b in
      (a.purchaseDate?.ms ?? 0, a.signedDate?.ms ?? 0, a.transactionId ?? "") < (b.purchaseDate?.ms ?? 0, b.signedDate?.ms ?? 0, b.transactionId ?? "")
    }
  }

  /// Of two versions of one transaction (a refund re-signs it), the later signedDate wins; then
  /// the better-proven copy; then content, so the choice never depends on input order.
  static func newerVersion(_ a: TransactionPayload, than b: TransactionPayload) -> Bool {
    newer(a.signedDate, a.source, a.json, than: b.signedDate, b.source, b.json)
  }

  static func newerRenewal(_ a: RenewalInfoPayload, than b: RenewalInfoPayload) -> Bool {
    newer(a.signedDate, a.source, a.json, than: b.signedDate, b.source, b.json)
  }

  private static func newer(_ da: Instant?, _ sa: JSONObject, _ ja: JSON, than db: Instant?, _ sb: JSONObject, _ jb: JSON) -> Bool {
    let ma = da?.ms ?? 0, mb = db?.ms ?? 0
    if ma != mb { return ma > mb }
    if let p = Provenance.preferred(Provenance(sa[Provenance.key]), over: Provenance(sb[Provenance.key])) { return p }
    return canonical(ja) < canonical(jb)
  }

  /// One notification seen twice (a webhook log and Notification History): the copy with the
  /// delivery record wins, then the better-proven one, then content.
  static func betterNotification(_ a: NotificationRecord, than b: NotificationRecord) -> Bool {
    let da = a.source["sendAttempts"] != nil, db = b.source["sendAttempts"] != nil
    if da != db { return da }
    if let p = Provenance.preferred(Provenance(a.source[Provenance.key]), over: Provenance(b.source[Provenance.key])) { return p }
    return canonical(a.json) < canonical(b.json)
  }

  static func canonical(_ json: JSON) -> String { JSONWriter.string(json, pretty: false) }
}
