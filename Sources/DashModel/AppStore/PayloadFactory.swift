import CoreValues
/// The one place that makes App Store payloads: the transactions and notifications that plan
/// actions (`u`, `d`, codes, win-back) and the simulator (renewals, purchases, refunds) add. Both
/// used to build them with their own defaults (bundleId, appTransactionId, storefront, currency);
/// importers and a webhook server make theirs here too.
///
/// Account-level fields (originalTransactionId, bundleId, storefront, currency, ownership,
/// environment, appAccountToken, appTransactionId) carry over from the previous transaction: a
/// renewal, plan change or resubscription stays one subscription in the group. Fields that belong
/// to one transaction only (deviceVerification, advancedCommerceInfo, revocation …) do not.
enum PayloadFactory {
  /// What one new transaction is: everything else comes from the previous one or the account.
  struct TransactionSpec {
    var sequence: Int
    var productId: String
    var groupId: String?
    var purchaseDate: Instant
    var expiresDate: Instant
    var reason: TransactionReason
    var priceMilli: Int64
    var offer: OfferStamp?
    /// nil: the previous transaction's, else PURCHASED. Family Sharing purchases say so.
    var ownership: OwnershipType?
    /// The history's summary: new ids come after the largest it holds.
    var history: HistorySummary?
  }

  /// The offer fields a transaction carries.
  struct OfferStamp {
    var type: OfferType
    var identifier: String?
    var discountType: OfferDiscountType?
    var period: String?
  }

  static let autoRenewable = "Auto-Renewable Subscription"

  static func transaction(_ s: TransactionSpec, previous p: TransactionPayload?, account: AccountDefaults) -> TransactionPayload {
    var t = TransactionPayload()
    // Ids come after the file's own, as Apple's only grow; except with a transactionIdOffset, the
    // range a population gives each member so no two of them (one backend) share an id: counting
    // past a member's own ids would run into its neighbour's range.
    let floor = account.keepsToItsIdRange ? nil : s.history
    let id = Identifiers.transactionId(sequence: s.sequence + account.idOffset, after: floor?.highestTransactionId)
    t.transactionId = id
    t.webOrderLineItemId = Identifiers.webOrderLineItemId(sequence: s.sequence + account.idOffset, after: floor?.highestWebOrderLineItemId)
    t.originalTransactionId = p?.originalTransactionId ?? p?.transactionId ?? account.originalTransactionId ?? id
    t.originalPurchaseDate = p?.originalPurchaseDate ?? p?.purchaseDate ?? s.purchaseDate
    t.bundleId = p?.bundleId ?? account.bundleId
    t.productId = s.productId
    t.subscriptionGroupIdentifier = s.groupId ?? p?.subscriptionGroupIdentifier
    t.purchaseDate = s.purchaseDate
    t.expiresDate = s.expiresDate
    t.signedDate = s.purchaseDate
    t.quantity = p?.quantity ?? 1
    t.type = p?.type ?? autoRenewable
    t.appAccountToken = p?.appAccountToken ?? account.appAccountToken
    t.inAppOwnershipType = s.ownership ?? p?.inAppOwnershipType ?? .purchased
    t.environment = p?.environment ?? account.environment
    t.storefront = p?.storefront ?? account.storefront
    t.storefrontId = p?.storefrontId
    t.currency = p?.currency ?? account.currency
    // The customer's one appTransactionId (Apple: the same for every transaction of the Apple
    // Account in the app): the previous transaction's, else the one derived for the subscription.
    let key = AppTransactionIdentity.key
    t.source[key] = p?.source[key] ?? .string(AppTransactionIdentity.derived(bundleId: t.bundleId ?? "", originalTransactionId: t.originalTransactionId ?? id))
    t.transactionReason = s.reason
    t.price = s.priceMilli
    t.offerType = s.offer?.type
    t.offerIdentifier = s.offer?.identifier
    t.offerDiscountType = s.offer?.discountType
    t.offerPeriod = s.offer?.period
    return t
  }

  /// A notification signed at `date`, its UUID reproducible from the seed, the subscriber and its
  /// place in the history.
  static func notification(
    _ type: NotificationType, _ subtype: NotificationSubtype?, sequence: Int, seed: UInt64, subscriber: Subscriber,
    at date: Instant, status: SubscriptionStatus?, productId: String?, summary: String
  ) -> NotificationRecord {
    let uuid = Identifiers.notificationUUID(seed: seed, subscriber: subscriber.identityKey, sequence: sequence, at: date)
    return NotificationRecord(type: type, subtype: subtype, uuid: uuid, signedDate: date, status: status, productId: productId, summary: summary)
  }
}

/// The account a subscriber's first transaction belongs to, when no earlier transaction says.
struct AccountDefaults {
  var originalTransactionId: String?
  var bundleId: String
  var storefront: String
  var currency: String?
  var environment: AppStoreEnvironment
  var appAccountToken: String?
  /// `simulation.transactionIdOffset`: where this account's sequence of ids starts.
  var idOffset: Int
  /// A `transactionIdOffset` is set (0 included, a population's first member): new ids stay in
  /// its range rather than count past the file's own.
  var keepsToItsIdRange = false

  /// A made-up bundle id for files that name none, so every transaction has one as Apple's do.
  static let exampleBundleId = "com.example.app"

  /// From the file: its renewal info, its simulation settings (when they read), its catalog.
  /// Currency: the subscriber's own, the simulation's, else USD for the USA storefront (the
  /// .storekit default) and unknown for other storefronts, whose currency the catalog does not say.
  init(state: SubscriptionState, settings: SimulationSettings?, sandboxRate: Bool = false) {
    let info = state.subscriber.renewalInfo
    originalTransactionId = info?.originalTransactionId
    bundleId = settings?.bundleId ?? Self.exampleBundleId
    storefront = settings?.storefront ?? state.catalog.settings.storefront ?? "USA"
    currency = state.subscriber.latestTransaction?.currency ?? info?.currency ?? settings?.currency
      ?? (storefront == "USA" ? "USD" : nil)
    environment = state.subscriber.environment ?? settings?.environment ?? (sandboxRate ? .sandbox : .xcode)
    appAccountToken = info?.appAccountToken
    idOffset = Int(settings?.transactionIdOffset ?? 0)
    keepsToItsIdRange = settings?.transactionIdOffset != nil
  }
}
