import CoreValues

/// Everything the App Store knows about one subscriber in one subscription group.
public struct Subscriber: Equatable, Sendable {
  public var source: JSONObject
  /// The most recent transaction; nil for someone who never subscribed (offer codes for "new").
  public var latestTransaction: TransactionPayload?
  public var renewalInfo: RenewalInfoPayload?
  /// Inline history, oldest first, typed on demand (see `InlineHistory`). Entries written by
  /// SubDash go to the journal instead.
  public var transactions: InlineHistory
  /// Inline notification log, oldest first.
  public var notifications: [NotificationRecord]
  public var redeemedOfferCodes: [RedeemedCode]
  public var askToBuy: AskToBuyRequest?
  /// Offer periods still to run for the offer in the latest transaction (SubDash's bookkeeping).
  public var offerPeriodsRemaining: Int?

  public init() {
    source = JSONObject()
    transactions = InlineHistory()
    notifications = []
    redeemedOfferCodes = []
  }

  public init(_ r: ObjectReader) throws(DecodeError) {
    source = r.object
    latestTransaction = try r.object("latestTransaction").map { (t) throws(DecodeError) in try TransactionPayload(t) }
    renewalInfo = try r.object("renewalInfo").map { (t) throws(DecodeError) in try RenewalInfoPayload(t) }
    (transactions, notifications) = try Self.histories(r)
    redeemedOfferCodes = try r.objects("redeemedOfferCodes") { (t) throws(DecodeError) in try RedeemedCode(t) } ?? []
    askToBuy = try r.object("askToBuy").map { (t) throws(DecodeError) in try AskToBuyRequest(t) }
    offerPeriodsRemaining = try r.int("offerPeriodsRemaining")
  }

  /// The inline history and the notification log. Long ones are read at the same time, the log
  /// on another core: each is a few dozen milliseconds for 100,000 entries, and nothing else is
  /// read meanwhile; a long log beside a short history is read on every core. The error is the
  /// one reading them in turn would give: the history's first.
  static func histories(_ r: ObjectReader, concurrentFrom minimum: Int = 5_000) throws(DecodeError) -> (InlineHistory, [NotificationRecord]) {
    @Sendable func log() throws(DecodeError) -> [NotificationRecord] {
      try r.objects("notifications") { (t) throws(DecodeError) in try NotificationRecord(t) } ?? []
    }
    let lengths = ["transactions", "notifications"].map { r.object[$0]?.arrayValue?.count ?? 0 }
    guard OrderedParallelMap.cores > 1, lengths[1] >= minimum else {
      return (try InlineHistory(r, key: "transactions"), try log())
    }
    // A short history (or one a viewer read while parsing: InlineHistory+Viewing.swift) and a
    // long log: the history first, then the log on every core.
    if lengths[0] < minimum, case .array(let items)? = r.object["notifications"] {
      return (try InlineHistory(r, key: "transactions"), try logOnEveryCore(items, at: r.path.appending("notifications")))
    }
    let (history, notifications) = OrderedParallelMap.both(
      { () throws(DecodeError) in try InlineHistory(r, key: "transactions") }, alsoOnAnotherCore: log)
    return (try history.get(), try (notifications ?? .success([])).get())
  }

  /// The notification log's `items` (at `path`), contiguous ranges on every core; the error is
  /// the first in order.
  private static func logOnEveryCore(_ items: [JSON], at path: JSONPath) throws(DecodeError) -> [NotificationRecord] {
    try OrderedParallelMap.map(count: items.count) { (k) throws(DecodeError) -> NotificationRecord in
      guard case .object(let o) = items[k] else { throw DecodeError(path.appending(k), "expected an object, found \(items[k].kindName)") }
      // Read first without its path (the root's is empty, retaining nothing): the one path held
      // by every record's reader was retained and released on both cores for each of them.
      // Only a record that fails is read again with its path, for the error to say where.
      if let record = try? NotificationRecord(ObjectReader(o, at: .root)) { return record }
      return try NotificationRecord(ObjectReader(o, in: path, index: k))
    }
  }


  public var json: JSON {
    var w = ObjectWriter(source)
    w.set("latestTransaction", json: latestTransaction?.json)
    w.set("renewalInfo", json: renewalInfo?.json)
    w.set("transactions", json: source["transactions"] == nil && transactions.isEmpty ? nil : transactions.json)
    w.set("notifications", json: source["notifications"] == nil && notifications.isEmpty ? nil : .array(notifications.map(\.json)))
    w.set("redeemedOfferCodes", json: source["redeemedOfferCodes"] == nil && redeemedOfferCodes.isEmpty ? nil : .array(redeemedOfferCodes.map(\.json)))
    w.set("askToBuy", json: askToBuy?.json)
    w.set("offerPeriodsRemaining", offerPeriodsRemaining)
    return w.json
  }

  public var originalTransactionId: String? { latestTransaction?.originalTransactionId ?? renewalInfo?.originalTransactionId }
  public var environment: AppStoreEnvironment? { latestTransaction?.environment ?? renewalInfo?.environment }

  /// Who this subscriber is to the App Store: originalTransactionId and appAccountToken, the two
  /// ids a server files notifications under. Notification UUIDs include it, so two state files
  /// never produce the same UUID for their own notifications.
  public var identityKey: String {
    let token = latestTransaction?.appAccountToken ?? renewalInfo?.appAccountToken
    return [originalTransactionId ?? "", token ?? ""].joined(separator: "|")
  }
}

/// An offer code this subscriber redeemed (Apple allows one redemption per offer per customer).
public struct RedeemedCode: Equatable, Sendable {
  public var source: JSONObject
  public var code: String
  public var offerReference: String
  public var productId: String?
  public var redeemedDate: Instant?

  public init(code: String, offerReference: String, productId: String?, redeemedDate: Instant?) {
    source = JSONObject()
    self.code = code
    self.offerReference = offerReference
    self.productId = productId
    self.redeemedDate = redeemedDate
  }

  public init(_ r: ObjectReader) throws(DecodeError) {
    source = r.object
    code = try r.requiredString("code")
    offerReference = try r.requiredString("offerReference")
    productId = try r.string("productId")
    redeemedDate = try r.instant("redeemedDate")
  }

  public var json: JSON {
    var w = ObjectWriter(source)
    w.set("code", code)
    w.set("offerReference", offerReference)
    w.set("productId", productId)
    w.set("redeemedDate", redeemedDate)
    return w.json
  }
}

/// A purchase waiting for a parent's approval (Ask to Buy). Requests lapse after about 24 hours.
public struct AskToBuyRequest: Equatable, Sendable {
  public enum Status: String, Sendable { case pending, declined }
  public var source: JSONObject
  public var productId: String
  public var requestedDate: Instant
  public var status: Status

  /// How long a parent has to answer. Apple: pending requests last about 24 hours, and duplicate
  /// requests are consolidated (docs/storekit-reference.md §2.6). The file keeps only the request
  /// date; whether it has lapsed depends on the moment it is viewed at.
  public static let lifetime = Span.hours(24)

  /// When an unanswered request stops waiting: 24 hours after it was made.
  public var lapseDate: Instant { requestedDate + Self.lifetime }

  /// Waiting for a parent at `now`: not declined, and `now` is before the lapse date.
  public func isPending(at now: Instant) -> Bool { status == .pending && now < lapseDate }

  public init(productId: String, requestedDate: Instant, status: Status = .pending) {
    source = JSONObject()
    self.productId = productId
    self.requestedDate = requestedDate
    self.status = status
  }

  public init(_ r: ObjectReader) throws(DecodeError) {
    source = r.object
    productId = try r.requiredString("productId")
    guard let d = try r.instant("requestedDate") else { throw DecodeError(r.path.appending("requestedDate"), "required date is missing") }
    requestedDate = d
    let s = try r.string("status") ?? "pending"
    guard let st = Status(rawValue: s) else { throw DecodeError(r.path.appending("status"), "expected \"pending\" or \"declined\"") }
    status = st
  }

  public var json: JSON {
    var w = ObjectWriter(source)
    w.set("productId", productId)
    w.set("requestedDate", requestedDate)
    w.set("status", status.rawValue)
    return w.json
  }
}
