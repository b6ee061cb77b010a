import DashModel
import CoreValues

/// Builds benchmark state files: one subscriber renewing a monthly plan on the sandbox schedule
/// (a month every five minutes, so even 100,000 renewals stay inside the years SubDash accepts),
/// with every renewal's transaction and DID_RENEW notification inline, and a `.storekit` catalog
/// beside the file. The same inputs always give the same bytes.
struct HistoryGenerator {
  static let catalogName = "bench.storekit"
  static let productId = "pass.family.monthly"
  static let groupId = "6F3A93AB"
  static let start = Instant(ms: 1_767_983_534_000)
  static let period: Double = 5 * 60_000

  var renewals: Int

  /// The state document with `renewals` inline transactions and notifications.
  func stateDocument() -> JSON {
    var transactions: [JSON] = []
    var notifications: [JSON] = []
    transactions.reserveCapacity(renewals)
    notifications.reserveCapacity(renewals)
    for k in 0..<renewals {
      transactions.append(Self.transaction(k).json)
      notifications.append(Self.notification(k).json)
    }
    let last = Self.transaction(max(0, renewals - 1))
    let subscriber = JSONObject([
      ("latestTransaction", last.json),
      ("renewalInfo", Self.renewalInfo(after: last).json),
      ("transactions", .array(transactions)),
      ("notifications", .array(notifications)),
    ])
    return .object(JSONObject([
      ("format", .string(DashModelInfo.stateFormat)),
      ("simulation", .object(JSONObject([("now", .double(Self.now(after: last).ms))]))),
      ("subscriber", .object(subscriber)),
      ("catalogFile", .string(Self.catalogName)),
    ]))
  }

  /// A minute into the latest period: the subscription is active and renews.
  static func now(after last: TransactionPayload) -> Instant { (last.purchaseDate ?? start) + Span(ms: 60_000) }

  /// Transaction number `k` (0 is the first purchase): 20 fields, as the App Store sends them.
  static func transaction(_ k: Int) -> TransactionPayload {
    var t = TransactionPayload()
    t.originalTransactionId = Identifiers.transactionId(sequence: 0)
    t.transactionId = Identifiers.transactionId(sequence: k)
    t.webOrderLineItemId = Identifiers.webOrderLineItemId(sequence: k)
    t.bundleId = "com.example.birdwatch"
    t.productId = productId
    t.subscriptionGroupIdentifier = groupId
    t.purchaseDate = start + Span(ms: Double(k) * period)
    t.originalPurchaseDate = start
    t.expiresDate = start + Span(ms: Double(k + 1) * period)
    t.quantity = 1
    t.type = "Auto-Renewable Subscription"
    t.inAppOwnershipType = .purchased
    t.signedDate = start + Span(ms: Double(k) * period + 1812)
    t.environment = .sandbox
    t.transactionReason = k == 0 ? .purchase : .renewal
    t.storefront = "USA"
    t.storefrontId = "143441"
    t.price = 7990
    t.currency = "USD"
    t.appAccountToken = "7d1f3c52-9a4e-4b8e-a0c1-2f6d9b3e5a17"
    return t
  }

  static func notification(_ k: Int) -> NotificationRecord {
    let at = start + Span(ms: Double(k) * period + 2000)
    return NotificationRecord(
      type: k == 0 ? NotificationType.subscribed : .didRenew, subtype: k == 0 ? NotificationSubtype.initialBuy : nil,
      uuid: Identifiers.notificationUUID(seed: 7, subscriber: Identifiers.transactionId(sequence: 0), sequence: k, at: at), signedDate: at, status: .active,
      productId: productId,
      summary: k == 0 ? "subscribed to Family Monthly for 7.99 USD" : "renewed Family Monthly for 7.99 USD")
  }

  static func renewalInfo(after t: TransactionPayload) -> RenewalInfoPayload {
    var r = RenewalInfoPayload()
    r.originalTransactionId = t.originalTransactionId
    r.productId = t.productId
    r.autoRenewProductId = t.productId
    r.autoRenewStatus = .on
    r.renewalDate = t.expiresDate
    r.renewalPrice = 7990
    r.currency = "USD"
    r.recentSubscriptionStartDate = start
    r.signedDate = t.signedDate
    r.environment = .sandbox
    return r
  }

  /// A small Xcode-format catalog: one group, a monthly and a yearly plan.
  static let storekit = """
    {
      "identifier": "B3C9D6A1",
      "nonRenewingSubscriptions": [],
      "products": [],
      "settings": { "_locale": "en_US", "_storefront": "USA" },
      "subscriptionGroups": [
        {
          "id": "6F3A93AB",
          "localizations": [],
          "name": "Birdwatch Pass",
          "subscriptions": [
            {
              "adHocOffers": [], "codeOffers": [], "displayPrice": "7.99", "familyShareable": true,
              "groupNumber": 2, "internalID": "A1B2C3D4",
              "introductoryOffer": { "internalID": "D2893B86", "paymentMode": "free", "subscriptionPeriod": "P2W" },
              "localizations": [ { "description": "The whole family", "displayName": "Family Monthly", "locale": "en_US" } ],
              "productID": "pass.family.monthly", "recurringSubscriptionPeriod": "P1M",
              "referenceName": "Family Monthly", "subscriptionGroupID": "6F3A93AB", "type": "RecurringSubscription"
            },
            {
              "adHocOffers": [], "codeOffers": [], "displayPrice": "79.99", "familyShareable": true,
              "groupNumber": 1, "internalID": "E5F6A7B8",
              "localizations": [ { "description": "The whole family, yearly", "displayName": "Family Yearly", "locale": "en_US" } ],
              "productID": "pass.family.yearly", "recurringSubscriptionPeriod": "P1Y",
              "referenceName": "Family Yearly", "subscriptionGroupID": "6F3A93AB", "type": "RecurringSubscription"
            }
          ]
        }
      ],
      "version": { "major": 4, "minor": 0 }
    }

    """
}
