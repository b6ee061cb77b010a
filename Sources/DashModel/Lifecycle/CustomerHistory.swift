import CoreValues
/// A subscriber's whole history reduced to what the summary and the timeline read: every
/// transaction version and every notification, oldest first, each a few fields. A 100,000-entry
/// journal kept as `TransactionPayload`s (with their JSON source) would hold hundreds of MiB for
/// as long as the dashboard is open; these compact records hold a few dozen bytes each.
public struct CustomerHistory: Equatable, Sendable {
  /// Transactions in the order written: a transaction SubDash rewrote (extended, refunded) comes
  /// again with the same `transactionId`, and the later version is the one that counts.
  public package(set) var transactions: [StoryTransaction] = []
  public package(set) var events: [StoryEvent] = []
  /// How far into the journal this history has read (its committed length then), so a reload
  /// reads only what was appended since (`StoryLoader`).
  public var journalBytes: Int64 = 0
  /// Why the journal could not be read, when it could not: the history is then incomplete.
  public var journalProblem: String?
  /// Inline entries left out because a field had the wrong type.
  public var skippedEntries = 0
  package var origin: Origin?

  public init() {}

  public mutating func add(_ t: TransactionPayload) { transactions.append(StoryTransaction(t)) }
  public mutating func add(_ t: StoryTransaction) { transactions.append(t) }
  public mutating func add(_ n: NotificationRecord) { events.append(StoryEvent(n)) }
  public mutating func add(_ e: Journal.Entry) {
    switch e {
    case .transaction(let t): add(t)
    case .notification(let n): add(n)
    }
  }
}

/// One transaction version, as the story needs it.
public struct StoryTransaction: Equatable, Sendable {
  public var transactionId: String?
  public var productId: String?
  public var purchaseDate: Instant?
  public var expiresDate: Instant?
  public var offerType: OfferType?
  public var offerDiscountType: OfferDiscountType?
  /// Milliunits, as the App Store sends it (9990 is 9.99).
  public var price: Int64?
  public var currency: String?
  public var revocationDate: Instant?
  public var revocationType: RevocationType?
  /// Milliunits of a percent-of-100: 50000 is 50 %.
  public var revocationPercentage: Int?
  public var familyShared: Bool
  /// For the transactions view: PURCHASE or RENEWAL, the offer's id, why it was revoked.
  public var transactionReason: TransactionReason?
  public var offerIdentifier: String?
  public var revocationReason: RevocationReason?
  /// What an upgrade refunded for this transaction's unused time, in milliunits: SubDash's own
  /// `proratedRefundMilli` on the upgraded version (`SwitchNow`; Apple's payloads carry none).
  public var upgradeRefundMilli: Int64?

  /// The field SubDash writes on a transaction an upgrade replaced (`SwitchNow.refundField`).
  static let upgradeRefundField = "proratedRefundMilli"

  public init(_ t: TransactionPayload) {
    transactionId = t.transactionId
    productId = t.productId
    purchaseDate = t.purchaseDate
    expiresDate = t.expiresDate
    offerType = t.offerType
    offerDiscountType = t.offerDiscountType
    price = t.price
    currency = t.currency
    revocationDate = t.revocationDate
    revocationType = t.revocationType
    revocationPercentage = t.revocationPercentage
    familyShared = t.isFamilyShared
    transactionReason = t.transactionReason
    offerIdentifier = t.offerIdentifier
    revocationReason = t.revocationReason
    // Type-checked as the file reader checks it; a value of the wrong kind is no refund.
    upgradeRefundMilli = t.isUpgraded == true ? (try? ObjectReader(t.source, at: .root).int64(Self.upgradeRefundField)) ?? nil : nil
  }

  /// The fields `init(_: ObjectReader)` reads: a file loaded for viewing keeps only these (and
  /// the summary's) in its inline entries (`InlineHistory.viewingProjection`, `storyProjection`).
  static let fieldsRead = ["transactionId", "productId", "purchaseDate", "expiresDate", "offerType", "offerDiscountType",
                           "price", "currency", "revocationDate", "revocationType", "revocationPercentage",
                           "inAppOwnershipType", "transactionReason", "offerIdentifier", "revocationReason",
                           "isUpgraded", upgradeRefundField]

  /// Straight from a history entry's JSON, reading only these fields (each checked with its
  /// path): typing every field of 100,000 inline entries was most of a long file's load time.
  public init(_ r: ObjectReader) throws(DecodeError) {
    transactionId = try r.string("transactionId")
    productId = try r.string("productId")
    purchaseDate = try r.instant("purchaseDate")
    expiresDate = try r.instant("expiresDate")
    offerType = try r.intEnum("offerType")
    offerDiscountType = try r.stringEnum("offerDiscountType")
    price = try r.int64("price")
    currency = try r.string("currency")
    revocationDate = try r.instant("revocationDate")
    revocationType = try r.stringEnum("revocationType")
    revocationPercentage = try r.int("revocationPercentage")
    let ownership: OwnershipType? = try r.stringEnum("inAppOwnershipType")
    familyShared = ownership == .familyShared
    transactionReason = try r.stringEnum("transactionReason")
    offerIdentifier = try r.string("offerIdentifier")
    revocationReason = try r.intEnum("revocationReason")
    upgradeRefundMilli = try r.bool("isUpgraded") == true ? try r.int64(Self.upgradeRefundField) : nil
  }

  /// Free periods cost nothing, whatever offer granted them.
  public var isFree: Bool { offerDiscountType == .freeTrial }
}

/// One notification, as the story needs it.
public struct StoryEvent: Equatable, Sendable {
  public var type: NotificationType
  public var subtype: NotificationSubtype?
  public var date: Instant?
  public var productId: String?
  public var summary: String?

  public init(_ n: NotificationRecord) {
    type = n.notificationType
    subtype = n.subtype
    date = n.signedDate
    productId = n.productId
    summary = n.summary
  }

  public init(type: NotificationType, subtype: NotificationSubtype? = nil, date: Instant?, productId: String? = nil, summary: String? = nil) {
    self.type = type
    self.subtype = subtype
    self.date = date
    self.productId = productId
    self.summary = summary
  }

  /// "DID_FAIL_TO_RENEW / GRACE_PERIOD".
  public var label: String { subtype.map { "\(type.rawValue) / \($0.rawValue)" } ?? type.rawValue }
}

extension CustomerHistory {
  /// What the history was read from besides the journal, so a refresh can tell whether the
  /// inline part is still the one it folded (a file rewritten by hand or replaced is read again).
  package struct Origin: Equatable, Sendable {
    package var inlineTransactions: Int
    package var inlineNotifications: Int
    package var inlineSummary: HistorySummary
    package var journalFile: String?
    package var journalSummaryFirstPurchase: Instant?
  }
}

extension CustomerHistory.Origin {
  package init(_ state: SubscriptionState) {
    inlineTransactions = state.subscriber.transactions.count
    inlineNotifications = state.subscriber.notifications.count
    inlineSummary = state.subscriber.transactions.summary
    journalFile = state.document.journal?.file
    journalSummaryFirstPurchase = state.document.journal?.summary.firstPurchase
  }
}
