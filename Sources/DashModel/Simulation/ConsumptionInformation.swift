import CoreValues
/// What a developer's server answered a CONSUMPTION_REQUEST with: the body of Send Consumption
/// Information (v2, `ConsumptionRequest`; appstore-server-api.md §3.10), kept in the pending refund
/// request (`simulation.refundRequest.consumptionInformation`) with the moment it arrived, so the
/// dashboard can show whether it came within Apple's 12 hours and what it asked for.
public struct ConsumptionInformation: Equatable, Sendable {
  public var source: JSONObject
  public var receivedDate: Instant
  public var customerConsented: Bool
  /// Apple's DeliveryStatus: DELIVERED or one of the UNDELIVERED_… reasons.
  public var deliveryStatus: String
  public var sampleContentProvided: Bool
  /// Milliunits, 0…100000 (50000 is half consumed); only with DELIVERED.
  public var consumptionPercentage: Int?
  /// Apple's RefundPreference: DECLINE, GRANT_FULL or GRANT_PRORATED.
  public var refundPreference: String?

  public static let deliveryStatuses = [
    "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE", "UNDELIVERED_OTHER",
  ]
  public static let refundPreferences = ["DECLINE", "GRANT_FULL", "GRANT_PRORATED"]

  public init(receivedDate: Instant, customerConsented: Bool, deliveryStatus: String, sampleContentProvided: Bool,
              consumptionPercentage: Int?, refundPreference: String?) {
    source = JSONObject()
    self.receivedDate = receivedDate
    self.customerConsented = customerConsented
    self.deliveryStatus = deliveryStatus
    self.sampleContentProvided = sampleContentProvided
    self.consumptionPercentage = consumptionPercentage
    self.refundPreference = refundPreference
  }

  init(_ r: ObjectReader) throws(DecodeError) {
    source = r.object
    guard let date = try r.instant("receivedDate") else { throw DecodeError(r.path.appending("receivedDate"), "required date is missing") }
    receivedDate = date
    customerConsented = try r.bool("customerConsented") ?? false
    deliveryStatus = try r.requiredString("deliveryStatus")
    sampleContentProvided = try r.bool("sampleContentProvided") ?? false
    consumptionPercentage = try r.int("consumptionPercentage")
    refundPreference = try r.string("refundPreference")
  }

  var json: JSON {
    var w = ObjectWriter(source)
    w.set("receivedDate", receivedDate)
    w.set("customerConsented", customerConsented)
    w.set("deliveryStatus", deliveryStatus)
    w.set("sampleContentProvided", sampleContentProvided)
    w.set("consumptionPercentage", consumptionPercentage)
    w.set("refundPreference", refundPreference)
    return w.json
  }

  /// "DELIVERED, 40% consumed, prefers DECLINE".
  public var summary: String {
    var parts = [deliveryStatus]
    if let p = consumptionPercentage { parts.append("\(Format.milliPercent(p)) consumed") }
    if let r = refundPreference { parts.append("prefers \(r)") }
    return parts.joined(separator: ", ")
  }
}
