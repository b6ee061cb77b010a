import CoreValues
/// `show --json`'s `appTransaction`: the record `fetch` wrote, dates in milliseconds and ISO 8601
/// like the report's other dates (`originalPurchaseDate`, `originalPurchaseDateISO`).
extension FetchedAppTransaction {
  public var json: JSON {
    var o = JSONObject()
    o["appTransactionId"] = .string(appTransactionId)
    o["originalPurchaseDate"] = originalPurchaseDate.map { .double($0.ms) } ?? .null
    o["originalPurchaseDateISO"] = originalPurchaseDate.map { .string($0.description) } ?? .null
    o["originalApplicationVersion"] = originalApplicationVersion.map(JSON.string) ?? .null
    o["environment"] = .string(environment)
    o["signature"] = .string(signature)
    return .object(o)
  }
}
