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
  public var usedIntroductoryOffer = false
  public var lastWinBackPurchase: Instant?
  public var firstPurchase: Instant?

  public init() {}

  init(_ r: ObjectReader) throws(DecodeError) {
    transactionCount = try r.int("transactionCount") ?? 0
    notificationCount = try r.int("notificationCount") ?? 0
    paidMillis = try r.double("paidMillis") ?? 0
    paidUntil = try r.instant("paidUntil")
    usedIntroductoryOffer = try r.bool("usedIntroductoryOffer") ?? false
    lastWinBackPurchase = try r.instant("lastWinBackPurchase")
    firstPurchase = try r.instant("firstPurchase")
  }

  var json: JSON {
    var w = ObjectWriter()
    w.set("transactionCount", transactionCount)
    w.set("notificationCount", notificationCount)
    w.set("paidMillis", json: .double(paidMillis))
    w.set("paidUntil", paidUntil)
    w.set("usedIntroductoryOffer", usedIntroductoryOffer)
    w.set("lastWinBackPurchase", lastWinBackPurchase)
    w.set("firstPurchase", firstPurchase)
    return w.json
  }

  /// Folds one transaction in. Transactions must arrive in purchase order.
  public mutating func add(_ t: TransactionPayload) {
    add(offerType: t.offerType, offerDiscountType: t.offerDiscountType,
        purchaseDate: t.purchaseDate, expiresDate: t.expiresDate, revocationDate: t.revocationDate)
  }

  /// Folds one history entry in straight from its JSON, reading only the fields above (a wrong
  /// type in one of them is an error with its path; other fields are not looked at).
  mutating func add(_ r: ObjectReader) throws(DecodeError) {
    add(offerType: try r.intEnum("offerType"), offerDiscountType: try r.stringEnum("offerDiscountType"),
        purchaseDate: try r.instant("purchaseDate"), expiresDate: try r.instant("expiresDate"),
        revocationDate: try r.instant("revocationDate"))
  }

  private mutating func add(
    offerType: OfferType?, offerDiscountType: OfferDiscountType?,
    purchaseDate: Instant?, expiresDate: Instant?, revocationDate: Instant?
  ) {
    transactionCount += 1
    if offerType == .introductory { usedIntroductoryOffer = true }
    if offerType == .winBack, let p = purchaseDate { lastWinBackPurchase = max(lastWinBackPurchase ?? p, p) }
    if let p = purchaseDate, firstPurchase == nil || p < firstPurchase! { firstPurchase = p }
    guard offerDiscountType != .freeTrial, let start = purchaseDate, var end = expiresDate else { return }
    if let r = revocationDate, r < end { end = r }
    // An upgrade ends the old period early: trim the overlap already counted.
    if let until = paidUntil, start < until {
      paidMillis -= (until - start).ms
    }
    if end > start { paidMillis += (end - start).ms }
    paidUntil = end
  }

  /// Combines a summary of earlier history with one of later history.
  public func merged(with later: HistorySummary) -> HistorySummary {
    var s = self
    s.transactionCount += later.transactionCount
    s.notificationCount += later.notificationCount
    s.paidMillis += later.paidMillis
    s.paidUntil = later.paidUntil ?? paidUntil
    s.usedIntroductoryOffer = usedIntroductoryOffer || later.usedIntroductoryOffer
    s.lastWinBackPurchase = later.lastWinBackPurchase ?? lastWinBackPurchase
    s.firstPurchase = firstPurchase ?? later.firstPurchase
    return s
  }
}
