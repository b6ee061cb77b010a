import CoreValues
/// Facts about a whole history that the rules need (paid time for win-back eligibility, whether an
/// introductory offer was used), folded one transaction at a time so the cost of an event never
/// depends on how long the history is.
public struct HistorySummary: Equatable, Sendable {
  public var transactionCount = 0
  public var notificationCount = 0
  /// Paid service time, overlaps counted once (an upgrade's new period overlaps the old one).
  public var paidMillis: Double = 0
  /// End of the latest paid interval seen, for the overlap rule.
  public var paidUntil: Instant?
  /// Length of the latest paid interval, in ms: a renewal paid late tells by it whether its period
  /// kept the renewal date (recovered in grace: paid from the period's start) or began at the
  /// payment (recovered in billing retry, when service had stopped).
  public var lastPaidMillis: Double?
  public var usedIntroductoryOffer = false
  /// The latest redemption of each win-back offer, by offer ID: Apple's wait between offers is
  /// per offer (App Store Connect API WinBackOffer, customerEligibilityWaitBetweenOffersInMonths).
  public var winBackRedeemed: [String: Instant] = [:]
  public var firstPurchase: Instant?
  /// The transaction folded last, so the latest transaction of a file whose history lacks it
  /// can be told apart and folded in (`including(latest:)`).
  public var lastTransactionId: String?
  /// The largest numeric transactionId folded (imported ones included): the ids the simulator
  /// makes come after it, as the App Store's only grow (`Identifiers.transactionId(sequence:after:)`).
  public var highestTransactionId: UInt64?
  /// The same for webOrderLineItemId, from the latest transaction (`including(latest:)`).
  public var highestWebOrderLineItemId: UInt64?

  public init() {}

  init(_ r: ObjectReader) throws(DecodeError) {
    transactionCount = try r.int("transactionCount") ?? 0
    notificationCount = try r.int("notificationCount") ?? 0
    paidMillis = try r.double("paidMillis") ?? 0
    paidUntil = try r.instant("paidUntil")
    lastPaidMillis = try r.double("lastPaidMillis")
    usedIntroductoryOffer = try r.bool("usedIntroductoryOffer") ?? false
    firstPurchase = try r.instant("firstPurchase")
    lastTransactionId = try r.string("lastTransactionId")
    highestTransactionId = try r.string("highestTransactionId").flatMap(Self.numericId)
    highestWebOrderLineItemId = try r.string("highestWebOrderLineItemId").flatMap(Self.numericId)
    if let m = try r.object("winBackRedeemed") {
      for key in m.object.keys { if let d = try m.instant(key) { winBackRedeemed[key] = d } }
    }
  }

  var json: JSON {
    var w = ObjectWriter()
    w.set("transactionCount", transactionCount)
    w.set("notificationCount", notificationCount)
    w.set("paidMillis", json: .double(paidMillis))
    w.set("paidUntil", paidUntil)
    if let lastPaidMillis { w.set("lastPaidMillis", json: .double(lastPaidMillis)) }
    w.set("usedIntroductoryOffer", usedIntroductoryOffer)
    w.set("firstPurchase", firstPurchase)
    w.set("lastTransactionId", lastTransactionId)
    // As text, as the ids themselves are: a 64-bit id does not survive a reader's doubles.
    w.set("highestTransactionId", highestTransactionId.map(String.init))
    w.set("highestWebOrderLineItemId", highestWebOrderLineItemId.map(String.init))
    var m = ObjectWriter()
    for key in winBackRedeemed.keys.sorted() { m.set(key, winBackRedeemed[key]) }
    w.set("winBackRedeemed", json: winBackRedeemed.isEmpty ? nil : m.json)
    return w.json
  }

  /// Folds one transaction in. Transactions must arrive in purchase order.
  public mutating func add(_ t: TransactionPayload) {
    transactionCount += 1
    fold(t)
  }

  /// Raises the highest ids to `t`'s where they are numbers (other ids are not the App Store's
  /// kind and cannot be counted past).
  /// The originalTransactionId is not counted: Apple's is the first transactionId (never the
  /// highest), and a population's members are named by ids of their own (`4…`) that their
  /// transactions must not count past into a neighbour's range.
  mutating func noteIds(transactionId: String?, webOrderLineItemId: String? = nil) {
    if let v = transactionId.flatMap(Self.numericId) { highestTransactionId = max(highestTransactionId ?? 0, v) }
    if let v = webOrderLineItemId.flatMap(Self.numericId) { highestWebOrderLineItemId = max(highestWebOrderLineItemId ?? 0, v) }
  }

  /// An id of digits only (no sign, no spaces) that fits 64 bits.
  static func numericId(_ text: String) -> UInt64? {
    guard !text.isEmpty, text.utf8.count <= 20, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
    return UInt64(text)
  }

  /// This summary with `latest` folded in when the history lacks it (a file from Get All
  /// Subscription Statuses holds only the latest transaction): its intro offer, win-back and paid
  /// time count, but not the transaction count, which numbers the transactions the history holds.
  /// Folding the transaction the summary folded last again changes nothing (the overlap rule
  /// trims its whole period first), so a summary without `lastTransactionId` is safe too.
  public func including(latest: TransactionPayload?) -> HistorySummary {
    guard let t = latest else { return self }
    var s = self
    s.noteIds(transactionId: t.transactionId, webOrderLineItemId: t.webOrderLineItemId)
    guard lastTransactionId == nil || t.transactionId != lastTransactionId else { return s }
    s.fold(t)
    return s
  }

  private mutating func fold(_ t: TransactionPayload) {
    // The transactionId only, as the folds from JSON and from a viewer's entries read it: the
    // three give the same summary. The latest transaction's other ids come in `including(latest:)`.
    noteIds(transactionId: t.transactionId)
    let counted = fold(offerType: t.offerType, offerDiscountType: t.offerDiscountType, offerIdentifier: t.offerIdentifier,
                       purchaseDate: t.purchaseDate, expiresDate: t.expiresDate, revocationDate: t.revocationDate)
    if counted { lastTransactionId = t.transactionId }
  }

  /// The fields `add(_: ObjectReader)` reads (see `StoryTransaction.fieldsRead`).
  static let fieldsRead = ["offerType", "offerDiscountType", "offerIdentifier", "purchaseDate", "expiresDate", "revocationDate", "transactionId"]

  /// Folds one history entry in straight from its JSON, reading only the fields above (a wrong
  /// type in one of them is an error with its path; other fields are not looked at).
  mutating func add(_ r: ObjectReader) throws(DecodeError) {
    transactionCount += 1
    let counted = fold(offerType: try r.intEnum("offerType"), offerDiscountType: try r.stringEnum("offerDiscountType"),
         offerIdentifier: try r.string("offerIdentifier"),
         purchaseDate: try r.instant("purchaseDate"), expiresDate: try r.instant("expiresDate"),
         revocationDate: try r.instant("revocationDate"))
    let id = try r.string("transactionId")
    noteIds(transactionId: id)
    if counted { lastTransactionId = id }
  }

  /// Folds one history entry in from the fields a viewer read of it (`ViewedEntries`): the same
  /// fields `add(_: ObjectReader)` reads, read by the same readers, so the same fold.
  mutating func add(_ t: StoryTransaction) {
    transactionCount += 1
    let counted = fold(offerType: t.offerType, offerDiscountType: t.offerDiscountType, offerIdentifier: t.offerIdentifier,
                       purchaseDate: t.purchaseDate, expiresDate: t.expiresDate, revocationDate: t.revocationDate)
    noteIds(transactionId: t.transactionId)
    if counted { lastTransactionId = t.transactionId }
  }

  /// False for a restated past period (see `isRestatedPastPeriod`), which changes no figure.
  @discardableResult
  private mutating func fold(
    offerType: OfferType?, offerDiscountType: OfferDiscountType?, offerIdentifier: String?,
    purchaseDate: Instant?, expiresDate: Instant?, revocationDate: Instant?
  ) -> Bool {
    if isRestatedPastPeriod(expiresDate: expiresDate, revocationDate: revocationDate) { return false }
    if offerType == .introductory { usedIntroductoryOffer = true }
    if offerType == .winBack, let p = purchaseDate, let id = offerIdentifier {
      winBackRedeemed[id] = max(winBackRedeemed[id] ?? p, p)
    }
    if let p = purchaseDate, firstPurchase == nil || p < firstPurchase! { firstPurchase = p }
    guard offerDiscountType != .freeTrial, var start = purchaseDate, var end = expiresDate else { return true }
    // Paid late, with a gap since the last paid period: a renewal recovered in grace kept its
    // renewal date, so its period (and the paid time) began where the last one ended, and it ends
    // exactly one period after that: the last period's length at an accelerated rate, whole
    // calendar weeks, months or years in real time. One recovered in billing retry (or a
    // resubscription after a lapse) began at the payment and ends a period after it instead.
    if let until = paidUntil, start > until, end > start, Self.isWholePeriod(from: until, to: end, last: lastPaidMillis) {
      start = until
    }
    if end > start { lastPaidMillis = (end - start).ms }
    if let r = revocationDate, r < end { end = r }
    // An upgrade ends the old period early: trim the overlap already counted.
    if let until = paidUntil, start < until {
      paidMillis -= (until - start).ms
    }
    if end > start { paidMillis += (end - start).ms }
    paidUntil = end
    return true
  }

  /// A new version of a transaction whose period ended before the latest paid period began (an
  /// earlier transaction refunded from the transactions view, after its period): its time was
  /// counted when it was first folded and a refund after its end takes none of it back, so it
  /// changes nothing. Folding it as a new period would move `paidUntil` back into the past.
  private func isRestatedPastPeriod(expiresDate: Instant?, revocationDate: Instant?) -> Bool {
    guard let until = paidUntil, let last = lastPaidMillis, let end = expiresDate else { return false }
    if let r = revocationDate, r < end { return false }
    return end.ms <= until.ms - last
  }

  /// Whether `end` is one subscription period after `start`, the period being the last paid one's:
  /// its exact length (accelerated rates), or the calendar week, month(s) or year as long as it
  /// within a few days (real time, where months differ). A lapse of a whole period followed by a
  /// resubscription is two periods after `start`, not one, and is not mistaken for a recovery.
  static func isWholePeriod(from start: Instant, to end: Instant, last: Double?) -> Bool {
    guard let last else { return false }
    if (end - start).ms == last { return true }
    let periods = [ISOPeriod(weeks: 1), ISOPeriod(months: 1), ISOPeriod(months: 2), ISOPeriod(months: 3),
                   ISOPeriod(months: 6), ISOPeriod(years: 1)]
    let sameLength = periods.filter { abs(($0.adding(1, to: start) - start).ms - last) <= Span.days(4).ms }
    return sameLength.contains { $0.adding(1, to: start) == end }
  }

  /// Combines a summary of earlier history with one of later history.
  public func merged(with later: HistorySummary) -> HistorySummary {
    var s = self
    s.transactionCount += later.transactionCount
    s.notificationCount += later.notificationCount
    s.paidMillis += later.paidMillis
    s.paidUntil = later.paidUntil ?? paidUntil
    s.lastPaidMillis = later.lastPaidMillis ?? lastPaidMillis
    s.usedIntroductoryOffer = usedIntroductoryOffer || later.usedIntroductoryOffer
    s.firstPurchase = firstPurchase ?? later.firstPurchase
    s.lastTransactionId = later.lastTransactionId ?? lastTransactionId
    s.winBackRedeemed.merge(later.winBackRedeemed) { max($0, $1) }
    s.highestTransactionId = [highestTransactionId, later.highestTransactionId].compactMap { $0 }.max()
    s.highestWebOrderLineItemId = [highestWebOrderLineItemId, later.highestWebOrderLineItemId].compactMap { $0 }.max()
    return s
  }
}
