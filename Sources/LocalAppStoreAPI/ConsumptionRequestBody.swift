import DashModel
import CoreValues

/// The body of Send Consumption Information (v2, `ConsumptionRequest`; appstore-server-api.md
/// §3.10), checked as Apple checks it: each refusal with Apple's code where the App Store Server
/// Library names one (4000035 consent, 4000036 delivery status, 4000041 sample content), Apple's
/// general 4000000 for the rules whose codes are not published.
enum ConsumptionRequestBody {
  static func parse(_ body: [UInt8]) throws(APIFailure) -> ConsumptionInformation {
    let o = try RequestBody.object(body, fields: ["customerConsented": APIFailure.invalidRequest(code: 4_000_035, message: "Invalid customer consented."),
                                                  "deliveryStatus": APIFailure.invalidRequest(code: 4_000_036, message: "Invalid delivery status."),
                                                  "sampleContentProvided": APIFailure.invalidRequest(code: 4_000_041, message: "Invalid sample content provided.")],
                                   unreadable: badRequest("the body is not a JSON object with each field once"))
    guard case .bool(true)? = o["customerConsented"] else {
      throw APIFailure.invalidRequest(code: 4_000_035, message: "Invalid customer consented.")
    }
    guard let status = o["deliveryStatus"]?.stringValue, ConsumptionInformation.deliveryStatuses.contains(status) else {
      throw APIFailure.invalidRequest(code: 4_000_036, message: "Invalid delivery status.")
    }
    guard case .bool(let sample)? = o["sampleContentProvided"] else {
      throw APIFailure.invalidRequest(code: 4_000_041, message: "Invalid sample content provided.")
    }
    var percentage: Int?
    switch o["consumptionPercentage"] {
    case nil, .null?: percentage = nil
    case let value? where RequestBody.integer(value).map({ (0...100_000).contains($0) }) == true: percentage = RequestBody.integer(value).map { Int($0) }
    default: throw badRequest("consumptionPercentage must be a whole number of milliunits, 0 to 100000")
    }
    var preference: String?
    switch o["refundPreference"] {
    case nil, .null?: preference = nil
    case .string(let p)? where ConsumptionInformation.refundPreferences.contains(p): preference = p
    default: throw badRequest("refundPreference must be DECLINE, GRANT_FULL or GRANT_PRORATED")
    }
    if status != "DELIVERED", let p = percentage, p != 0 {
      throw badRequest("consumptionPercentage must be 0 unless deliveryStatus is DELIVERED")
    }
    if preference == "GRANT_PRORATED", percentage != nil {
      throw badRequest("omit consumptionPercentage with GRANT_PRORATED for an auto-renewable subscription")
    }
    return ConsumptionInformation(receivedDate: Instant(ms: 0), customerConsented: true, deliveryStatus: status,
                                  sampleContentProvided: sample, consumptionPercentage: percentage, refundPreference: preference)
  }

  private static func badRequest(_ why: String) -> APIFailure {
    .invalidRequest(code: 4_000_000, message: "Bad request: \(why).")
  }
}
