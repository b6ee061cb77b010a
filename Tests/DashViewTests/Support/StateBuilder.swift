@testable import DashModel
import Foundation

/// Builds a real `SubscriptionState` by decoding a state document through `StateFile.decode`,
/// so fixtures go through the same reader as a user's file.
struct StateBuilder {
  static var catalog: [String: Any] { [
    "subscriptionGroups": [[
      "id": "21482456", "name": "SubDash Plus",
      "subscriptions": [
        product("com.example.pro.yearly", "Pro Yearly", level: 1, period: "P1Y", price: "99.99"),
        product("com.example.pro.monthly", "Pro Monthly", level: 1, period: "P1M", price: "9.99"),
        product("com.example.premium.monthly", "Premium Monthly", level: 2, period: "P1M", price: "6.99", winBack: [
          ["offerId": "winback.half", "referenceName": "Half price for 3 months", "offerMode": "PAY_AS_YOU_GO",
           "duration": "ONE_MONTH", "periodCount": 3, "displayPrice": "3.49", "priority": "HIGH"],
          ["offerId": "winback.free", "referenceName": "One month free", "offerMode": "FREE_TRIAL",
           "duration": "ONE_MONTH", "periodCount": 1],
        ]),
        product("com.example.premium.yearly", "Premium Yearly", level: 2, period: "P1Y", price: "59.99"),
        product("com.example.basic.monthly", "Basic Monthly", level: 3, period: "P1M", price: "2.99"),
      ],
    ]],
  ] }

  static func product(_ id: String, _ name: String, level: Int, period: String, price: String, winBack: [[String: Any]] = []) -> [String: Any] {
    var p: [String: Any] = [
      "productID": id, "referenceName": name, "groupNumber": level, "recurringSubscriptionPeriod": period,
      "displayPrice": price, "familyShareable": true, "localizations": [["displayName": name, "locale": "en_US"]],
    ]
    if !winBack.isEmpty { p["winbackOffers"] = winBack }
    return p
  }

  var transaction: [String: Any]? = [
    "originalTransactionId": "2000000123456789", "transactionId": "2000000123456799",
    "productId": "com.example.premium.monthly", "subscriptionGroupIdentifier": "21482456",
    "purchaseDate": day(2026, 3, 1, 9, 30).whole, "originalPurchaseDate": day(2025, 11, 1, 9, 30).whole,
    "expiresDate": day(2026, 4, 1, 9, 30).whole, "environment": "Sandbox", "inAppOwnershipType": "PURCHASED",
    "price": 6990, "currency": "USD", "appAccountToken": "7c1f2d3e-9a8b-4c5d-8e7f-001122334455",
    "type": "Auto-Renewable Subscription", "transactionReason": "RENEWAL",
  ]
  var renewal: [String: Any]? = [
    "originalTransactionId": "2000000123456789", "productId": "com.example.premium.monthly",
    "autoRenewProductId": "com.example.premium.monthly", "autoRenewStatus": 1, "environment": "Sandbox",
    "renewalDate": day(2026, 4, 1, 9, 30).whole, "renewalPrice": 6990, "currency": "USD",
  ]
  var notifications: [[String: Any]] = [
    note("SUBSCRIBED", "INITIAL_BUY", day(2025, 11, 1, 9, 30), "subscribed to Premium Monthly for 6.99 USD"),
    note("DID_RENEW", nil, day(2026, 2, 1, 9, 30), "renewed Premium Monthly for 6.99 USD"),
    note("DID_RENEW", nil, day(2026, 3, 1, 9, 30), "renewed Premium Monthly for 6.99 USD"),
  ]
  var askToBuy: [String: Any]?
  var policy: [String: Any]?

  static func note(_ type: String, _ subtype: String?, _ at: Instant, _ summary: String) -> [String: Any] {
    var n: [String: Any] = ["notificationType": type, "signedDate": at.whole, "summary": summary,
                            "notificationUUID": "uuid-\(type.lowercased())-\(at.whole)"]
    if let subtype { n["subtype"] = subtype }
    return n
  }

  mutating func setTransaction(_ key: String, _ value: Any?) { transaction?[key] = value }
  mutating func setRenewal(_ key: String, _ value: Any?) { renewal?[key] = value }

  func build() -> SubscriptionState {
    var subscriber: [String: Any] = ["notifications": notifications]
    if let transaction { subscriber["latestTransaction"] = transaction }
    if let renewal { subscriber["renewalInfo"] = renewal }
    if let askToBuy { subscriber["askToBuy"] = askToBuy }
    var doc: [String: Any] = ["format": "subdash-state/1", "subscriber": subscriber, "catalog": StateBuilder.catalog]
    if let policy { doc["policy"] = policy }
    let data = try! JSONSerialization.data(withJSONObject: doc, options: [.sortedKeys])
    do {
      return try StateFile.decode(Array(data), fileName: "state.json") { (name) throws(StateFileError) in
        throw StateFileError(file: name, message: "no catalog files in tests")
      }
    } catch {
      fatalError("fixture does not decode: \(error)")
    }
  }
}
