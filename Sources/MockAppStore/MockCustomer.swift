import Foundation

/// One subscriber as the mock App Store holds them: decoded payloads, signed on the way out.
public struct MockCustomer: Sendable {
  public var originalTransactionID: String
  public var transactions: [[String: JSONValue]]
  public var renewalInfo: [String: JSONValue]
  public var notifications: [[String: JSONValue]]
  public var refundedTransactionIDs: [String]
  public var orderIDs: [String]

  /// A monthly subscription renewed `renewals` times, starting at `start` (ms since 1970).
  public static func monthly(originalTransactionID: String, renewals: Int, environment: String,
                             bundleID: String = "com.example.subdash", productID: String = "pro.monthly",
                             start: Int64 = 1_760_000_000_000, orderID: String = "MOCKORDER1") -> MockCustomer {
    let month: Int64 = 30 * 86_400_000
    var transactions: [[String: JSONValue]] = []
    for i in 0...renewals {
      let purchase = start + Int64(i) * month
      let id = i == 0 ? originalTransactionID : String(Int64(originalTransactionID)! + Int64(i))
      transactions.append([
        "transactionId": .string(id), "originalTransactionId": .string(originalTransactionID),
        "bundleId": .string(bundleID), "productId": .string(productID), "subscriptionGroupIdentifier": .string("21000001"),
        "purchaseDate": .number(Double(purchase)), "originalPurchaseDate": .number(Double(start)),
        "expiresDate": .number(Double(purchase + month)), "quantity": .number(1), "type": .string("Auto-Renewable Subscription"),
        "inAppOwnershipType": .string("PURCHASED"), "signedDate": .number(Double(purchase)), "environment": .string(environment),
        "transactionReason": .string(i == 0 ? "PURCHASE" : "RENEWAL"), "storefront": .string("USA"), "storefrontId": .string("143441"),
        "price": .number(9990), "currency": .string("USD"), "webOrderLineItemId": .string("9000\(i)"),
      ])
    }
    let last = start + Int64(renewals) * month
    let renewal: [String: JSONValue] = [
      "originalTransactionId": .string(originalTransactionID), "autoRenewProductId": .string(productID),
      "productId": .string(productID), "autoRenewStatus": .number(1), "signedDate": .number(Double(last)),
      "environment": .string(environment), "recentSubscriptionStartDate": .number(Double(start)),
      "renewalDate": .number(Double(last + month)),
    ]
    let notifications: [[String: JSONValue]] = transactions.enumerated().map { index, tx in
      [
        "notificationType": .string(index == 0 ? "SUBSCRIBED" : "DID_RENEW"),
        "subtype": .string(index == 0 ? "INITIAL_BUY" : ""),
        "notificationUUID": .string("00000000-0000-4000-8000-\(String(format: "%012d", index))"),
        "version": .string("2.0"), "signedDate": tx["signedDate"]!,
        "data": .object(["bundleId": .string(bundleID), "environment": .string(environment), "transaction": .object(tx)]),
      ]
    }
    return MockCustomer(originalTransactionID: originalTransactionID, transactions: transactions, renewalInfo: renewal,
                        notifications: notifications, refundedTransactionIDs: [], orderIDs: [orderID])
  }

  func owns(_ id: String) -> Bool {
    id == originalTransactionID || transactions.contains { $0["transactionId"] == .string(id) }
  }
}

/// A JSON value small enough to keep the mock's data Sendable and its output byte-stable.
public indirect enum JSONValue: Sendable, Equatable {
  case string(String), number(Double), bool(Bool), null
  case array([JSONValue]), object([String: JSONValue])

  public var text: String {
    switch self {
    case .string(let s):
      let data = try! JSONSerialization.data(withJSONObject: [s], options: [.withoutEscapingSlashes])
      return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
    case .bool(let b): return b ? "true" : "false"
    case .null: return "null"
    case .array(let a): return "[" + a.map(\.text).joined(separator: ",") + "]"
    case .object(let o):
      return "{" + o.keys.sorted().map { JSONValue.string($0).text + ":" + o[$0]!.text }.joined(separator: ",") + "}"
    }
  }
}
