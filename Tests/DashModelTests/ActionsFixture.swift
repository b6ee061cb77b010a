import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// A small store for action tests, in the shape of a .storekit file:
///
/// group "pass" (Birds Pass)                      group "other"
///   level 1  pass.premium        P1M 11.99         other.monthly P1M 2.99
///   level 2  pass.family         P1M  7.99
///   level 2  pass.duo            P1M  6.99   (same level and duration as family)
///   level 2  pass.family.annual  P1Y 79.99   (same level, other duration)
///   level 3  pass.individual     P1M  4.99
///
/// Offer codes (the catalog's codeOffers, redeemed through the state file's offerCodes):
///   premium:    premium-intro   pay as you go 0.99 × 3 × P1M, for new and expired
///   premium:    premium-loyal   free P1W, for existing
///   family:     family-any      free P1W, for everyone
///   individual: individual-cut  2.99 up front for P3M, for existing
///   other:      other-any       free P1W, for everyone
enum ActionsFixture {
  static let catalog = """
    {
      "settings": { "_storefront": "USA" },
      "subscriptionGroups": [
        { "id": "6F3A93AB", "name": "Birds Pass", "subscriptions": [
          { "productID": "pass.premium", "referenceName": "Premium", "groupNumber": 1,
            "recurringSubscriptionPeriod": "P1M", "displayPrice": "11.99",
            "localizations": [{ "displayName": "Premium Pass", "locale": "en_US" }],
            "codeOffers": [
              { "referenceName": "premium-intro", "paymentMode": "payAsYouGo", "subscriptionPeriod": "P1M",
                "numberOfPeriods": 3, "displayPrice": "0.99", "eligibility": ["new", "expired"], "isStackable": false },
              { "referenceName": "premium-loyal", "paymentMode": "free", "subscriptionPeriod": "P1W",
                "numberOfPeriods": 1, "eligibility": ["existing"], "isStackable": false }
            ] },
          { "productID": "pass.family", "referenceName": "Family", "groupNumber": 2,
            "recurringSubscriptionPeriod": "P1M", "displayPrice": "7.99",
            "localizations": [{ "displayName": "Family Pass", "locale": "en_US" }],
            "codeOffers": [
              { "referenceName": "family-any", "paymentMode": "free", "subscriptionPeriod": "P1W",
                "numberOfPeriods": 1, "eligibility": ["new", "existing", "expired"], "isStackable": true }
            ] },
          { "productID": "pass.duo", "referenceName": "Duo", "groupNumber": 2,
            "recurringSubscriptionPeriod": "P1M", "displayPrice": "6.99",
            "localizations": [{ "displayName": "Duo Pass", "locale": "en_US" }] },
          { "productID": "pass.family.annual", "referenceName": "Family Annual", "groupNumber": 2,
            "recurringSubscriptionPeriod": "P1Y", "displayPrice": "79.99",
            "localizations": [{ "displayName": "Family Pass (Annual)", "locale": "en_US" }] },
          { "productID": "pass.individual", "referenceName": "Individual", "groupNumber": 3,
            "recurringSubscriptionPeriod": "P1M", "displayPrice": "4.99",
            "localizations": [{ "displayName": "Individual Pass", "locale": "en_US" }],
            "codeOffers": [
              { "referenceName": "individual-cut", "paymentMode": "payUpFront", "subscriptionPeriod": "P3M",
                "numberOfPeriods": 1, "displayPrice": "2.99", "eligibility": ["existing"], "isStackable": false }
            ] }
        ] },
        { "id": "OTHER", "name": "Other", "subscriptions": [
          { "productID": "other.monthly", "referenceName": "Other", "groupNumber": 1,
            "recurringSubscriptionPeriod": "P1M", "displayPrice": "2.99",
            "codeOffers": [
              { "referenceName": "other-any", "paymentMode": "free", "subscriptionPeriod": "P1W",
                "numberOfPeriods": 1, "eligibility": ["new", "existing", "expired"], "isStackable": false }
            ] }
        ] }
      ]
    }
    """

  static let offerCodes = """
    [
      { "type": "custom", "code": "SPRING26", "productId": "pass.premium", "offerReference": "premium-intro",
        "redemptionLimit": 2, "redemptionCount": 0, "expiresDate": 1782864000000 },
      { "type": "custom", "code": "LOYAL", "productId": "pass.premium", "offerReference": "premium-loyal" },
      { "type": "oneTime", "productId": "pass.family", "offerReference": "family-any",
        "codes": ["FAM-AAAA-1111", "FAM-BBBB-2222"], "redeemedCodes": [] },
      { "type": "custom", "code": "SMALLER", "productId": "pass.individual", "offerReference": "individual-cut" },
      { "type": "custom", "code": "ELSEWHERE", "productId": "other.monthly", "offerReference": "other-any" },
      { "type": "custom", "code": "GHOST", "productId": "pass.premium", "offerReference": "no-such-offer" }
    ]
    """

  static let winBackOffers = """
    [
      { "offerId": "wb-family-3m", "referenceName": "Come back to Family", "productId": "pass.family",
        "offerMode": "PAY_UP_FRONT", "duration": "THREE_MONTHS", "periodCount": 1, "displayPrice": "9.99",
        "customerEligibilityPaidSubscriptionDurationInMonths": 1,
        "customerEligibilityTimeSinceLastSubscribedInMonths": { "minimum": 1, "maximum": 24 },
        "priority": "HIGH" },
      { "offerId": "wb-premium-free", "referenceName": "Premium week", "productId": "pass.premium",
        "offerMode": "FREE_TRIAL", "duration": "ONE_WEEK", "periodCount": 1 },
      { "offerId": "wb-other", "productId": "other.monthly", "offerMode": "PAY_AS_YOU_GO",
        "duration": "ONE_MONTH", "periodCount": 2, "displayPrice": "0.99" }
    ]
    """

  /// The subscription period every scenario starts in: Jan 10 to Feb 10, 2026.
  static let purchase = utc("2026-01-10T12:00:00Z")
  static let expires = utc("2026-02-10T12:00:00Z")
  static let midPeriod = utc("2026-01-25T12:00:00Z")

  /// A subscriber paying 7.99 USD for Family Pass, auto-renew on.
  static func state(
    product: String = "pass.family", price: Int = 7990, autoRenew: Int = 1, autoRenewProduct: String? = nil, renewalPrice: Int? = nil,
    renewalExtras: String = "", transactionExtras: String = "", subscriberExtras: String = "",
    documentExtras: String = "", catalogText: String = catalog
  ) -> SubscriptionState {
    let next = autoRenewProduct ?? product
    let text = """
      {
        "format": "subdash-state/1",
        \(documentExtras)
        "catalog": \(catalogText),
        "offerCodes": \(offerCodes),
        "winBackOffers": \(winBackOffers),
        "subscriber": {
          \(subscriberExtras)
          "latestTransaction": {
            "originalTransactionId": "1000000111", "transactionId": "1000000999", "webOrderLineItemId": "1000000555",
            "bundleId": "com.example.birds", "productId": "\(product)", "subscriptionGroupIdentifier": "6F3A93AB",
            "purchaseDate": \(Int64(purchase.ms)), "originalPurchaseDate": 1735732800000, "expiresDate": \(Int64(expires.ms)),
            "quantity": 1, "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
            "signedDate": \(Int64(purchase.ms)), "environment": "Sandbox", "transactionReason": "RENEWAL",
            "storefront": "USA", "storefrontId": "143441", "price": \(price), "currency": "USD",
            "appTransactionId": "704000000000000001"
            \(transactionExtras)
          },
          "renewalInfo": {
            "originalTransactionId": "1000000111", "productId": "\(product)", "autoRenewProductId": "\(next)",
            "autoRenewStatus": \(autoRenew), "signedDate": \(Int64(purchase.ms)), "environment": "Sandbox",
            "recentSubscriptionStartDate": 1735732800000, "renewalDate": \(Int64(expires.ms)),
            "renewalPrice": \(renewalPrice ?? price), "currency": "USD", "appTransactionId": "704000000000000001"
            \(renewalExtras)
          }
        }
      }
      """
    return decode(text)
  }

  /// Someone who never subscribed: no transaction, no renewal info.
  static func newCustomer(documentExtras: String = "") -> SubscriptionState {
    decode("""
      { "format": "subdash-state/1", \(documentExtras) "catalog": \(catalog), "offerCodes": \(offerCodes),
        "winBackOffers": \(winBackOffers), "subscriber": {} }
      """)
  }

  static func decode(_ text: String) -> SubscriptionState {
    do {
      return try StateFile.decode(Array(text.utf8), fileName: "fixture.json") { (name) throws(StateFileError) -> Catalog in
        throw StateFileError(file: name, message: "fixtures are inline")
      }
    } catch {
      fatalError("fixture does not load: \(error)")
    }
  }
}

/// The change an action makes, or a test failure naming the refusal.
func applied(_ a: PlanAction, to s: SubscriptionState, at now: Instant, sourceLocation: SourceLocation = #_sourceLocation) throws -> Change {
  switch Actions.apply(a, to: s, at: now) {
  case .success(let c): return c
  case .failure(let e):
    Issue.record("expected \(a) to succeed, got: \(e.message)", sourceLocation: sourceLocation)
    throw e
  }
}

/// The refusal an action gives (nil when it succeeds), checking that preview refuses the same way.
func refusal(_ a: PlanAction, in s: SubscriptionState, at now: Instant) -> ActionError? {
  let applyError: ActionError?
  if case .failure(let e) = Actions.apply(a, to: s, at: now) { applyError = e } else { applyError = nil }
  let previewError: ActionError?
  if case .failure(let e) = Actions.preview(a, in: s, at: now) { previewError = e } else { previewError = nil }
  #expect(applyError == previewError)
  return applyError
}

extension Change {
  var notification: NotificationRecord? { notifications.count == 1 ? notifications[0] : nil }
  var renewal: RenewalInfoPayload? { state.subscriber.renewalInfo }
  var latest: TransactionPayload? { state.subscriber.latestTransaction }
}
