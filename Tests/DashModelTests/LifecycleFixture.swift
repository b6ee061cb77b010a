import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// Builds states from JSON text, the way a support person's file would arrive, with a small
/// inline catalog: group G1 (pro.monthly and pro.annual at level 1, plus.monthly at level 2,
/// basic.monthly at level 3) and group G2 (other.monthly).
enum LifecycleFixture {
  /// A UTC date ("2026-05-01 10:00") as an instant.
  static func at(_ text: String) -> Instant { try! Format.parseDate(text) }

  /// A UTC date as JSON milliseconds, for interpolating into state text.
  static func ms(_ text: String) -> String { String(Int64(at(text).ms)) }

  static let catalog = """
    {
      "settings": {"_billingGracePeriodEnabled": true},
      "subscriptionGroups": [
        {"id": "G1", "name": "Test Pass", "subscriptions": [
          {"productID": "pro.monthly", "groupNumber": 1, "recurringSubscriptionPeriod": "P1M", "displayPrice": "9.99"},
          {"productID": "pro.annual", "groupNumber": 1, "recurringSubscriptionPeriod": "P1Y", "displayPrice": "99.99"},
          {"productID": "plus.monthly", "groupNumber": 2, "recurringSubscriptionPeriod": "P1M", "displayPrice": "4.99"},
          {"productID": "basic.monthly", "groupNumber": 3, "recurringSubscriptionPeriod": "P1M", "displayPrice": "2.99"}
        ]},
        {"id": "G2", "name": "Other", "subscriptions": [
          {"productID": "other.monthly", "groupNumber": 1, "recurringSubscriptionPeriod": "P1M", "displayPrice": "1.99"}
        ]}
      ]
    }
    """

  /// A state whose subscriber object has `subscriber` as its members, plus `extra` top-level
  /// members (winBackOffers, policy …), each ending with a comma.
  static func state(_ subscriber: String, extra: String = "") throws -> SubscriptionState {
    let text = """
      {
        "format": "subdash-state/1",
        \(extra)
        "catalog": \(catalog),
        "subscriber": {\(subscriber)}
      }
      """
    return try StateFile.decode(Array(text.utf8), fileName: "test.json") { (name: String) throws(StateFileError) -> Catalog in
      throw StateFileError(file: name, message: "tests use inline catalogs")
    }
  }

  static func report(_ subscriber: String, extra: String = "", at now: String) throws -> LifecycleReport {
    Lifecycle.derive(try state(subscriber, extra: extra), at: at(now))
  }

  // MARK: - The usual subscriber: pro.monthly bought 2026-04-01 10:00, renewing 2026-05-01 10:00.

  static let purchase = "2026-04-01 10:00"
  static let expires = "2026-05-01 10:00"

  /// latestTransaction members for pro.monthly, with `more` members appended.
  static func transaction(_ more: String = "", productId: String = "pro.monthly", purchase: String = purchase, expires: String = expires) -> String {
    """
    "latestTransaction": {
      "originalTransactionId": "2000000100000001", "transactionId": "2000000100000009",
      "productId": "\(productId)", "subscriptionGroupIdentifier": "G1",
      "purchaseDate": \(ms(purchase)), "expiresDate": \(ms(expires)),
      "inAppOwnershipType": "PURCHASED", "environment": "Sandbox", "price": 9990, "currency": "USD"\(more.isEmpty ? "" : ", " + more)
    }
    """
  }

  /// renewalInfo members consistent with `transaction()`, auto-renew on unless `more` says otherwise.
  static func renewal(_ more: String = "", autoRenew: Int = 1, autoRenewProductId: String = "pro.monthly") -> String {
    """
    "renewalInfo": {
      "originalTransactionId": "2000000100000001", "productId": "pro.monthly",
      "autoRenewProductId": "\(autoRenewProductId)", "autoRenewStatus": \(autoRenew), "environment": "Sandbox"\(more.isEmpty ? "" : ", " + more)
    }
    """
  }

  /// The usual subscriber: active until `expires`, auto-renew on.
  static func subscriber(transaction t: String = transaction(), renewal r: String = renewal()) -> String {
    t + ",\n" + r
  }
}
