import DashModel
import CoreValues

/// Get Transaction History's query, checked as Apple checks it (docs/appstore-server-api.md §3.3):
/// each parameter's values from Apple's lists, else that parameter's 400 code; several filters
/// combine with AND, several values of one parameter with OR.
struct HistoryFilter {
  var startDate: Instant?
  var endDate: Instant?
  var productIds: Set<String> = []
  /// Apple's `productType` names mapped to the transaction's `type` words.
  var types: Set<String> = []
  var groups: Set<String> = []
  var ownership: String?
  /// true: revoked only; false: not revoked; nil: both.
  var revoked: Bool?
  var descending = false

  /// Get Refund History: the revoked transactions, oldest first.
  static let refunds = HistoryFilter(revoked: true)

  static let productTypes = [
    "AUTO_RENEWABLE": "Auto-Renewable Subscription", "NON_RENEWABLE": "Non-Renewing Subscription",
    "CONSUMABLE": "Consumable", "NON_CONSUMABLE": "Non-Consumable",
  ]

  init(startDate: Instant? = nil, endDate: Instant? = nil, revoked: Bool? = nil) {
    self.startDate = startDate
    self.endDate = endDate
    self.revoked = revoked
  }

  init(_ query: [(String, String)]) throws {
    func invalid(_ code: Int, _ message: String) -> APIFailure { .invalidRequest(code: code, message: message) }
    for (name, value) in query {
      switch name {
      case "startDate": startDate = try Self.date(value, orFail: invalid(4_000_015, "Invalid start date."))
      case "endDate": endDate = try Self.date(value, orFail: invalid(4_000_016, "Invalid end date."))
      case "productId":
        guard !value.isEmpty else { throw invalid(4_000_023, "Invalid product id.") }
        productIds.insert(value)
      case "productType":
        guard let type = Self.productTypes[value] else { throw invalid(4_000_022, "Invalid product type.") }
        types.insert(type)
      case "subscriptionGroupIdentifier":
        guard !value.isEmpty else { throw invalid(4_000_024, "Invalid subscription group identifier.") }
        groups.insert(value)
      case "inAppOwnershipType":
        guard value == "PURCHASED" || value == "FAMILY_SHARED" else { throw invalid(4_000_026, "Invalid in-app ownership type.") }
        ownership = value
      case "sort":
        guard value == "ASCENDING" || value == "DESCENDING" else { throw invalid(4_000_021, "Invalid sort.") }
        descending = value == "DESCENDING"
      case "revoked":
        guard let v = Bool(value) else { throw invalid(4_000_030, "Invalid revoked.") }
        revoked = v
      case "excludeRevoked":
        // Deprecated for `revoked=false`, still accepted.
        guard let v = Bool(value) else { throw invalid(4_000_025, "Invalid exclude revoked.") }
        if v { revoked = false }
      default:
        continue  // `revision` is the cursor's; other names Apple ignores too
      }
    }
  }

  func keeps(_ t: TransactionPayload) -> Bool {
    if let revoked, revoked != (t.revocationDate != nil) { return false }
    if !productIds.isEmpty, !productIds.contains(t.productId ?? "") { return false }
    if !types.isEmpty, !types.contains(t.type ?? "") { return false }
    if !groups.isEmpty, !groups.contains(t.subscriptionGroupIdentifier ?? "") { return false }
    if let ownership, t.inAppOwnershipType?.rawValue != ownership { return false }
    // startDate ≤ purchaseDate < endDate.
    let purchased = t.purchaseDate ?? Instant(ms: 0)
    if let startDate, purchased < startDate { return false }
    if let endDate, purchased >= endDate { return false }
    return true
  }

  /// Milliseconds since 1970 as digits; `1e400`, `nan` and `12abc` are not dates.
  private static func date(_ text: String, orFail failure: APIFailure) throws -> Instant {
    guard !text.isEmpty, text.count <= 16, text.allSatisfy({ $0.isASCII && $0.isNumber }), let ms = Int64(text) else { throw failure }
    return Instant(ms: Double(ms))
  }
}
