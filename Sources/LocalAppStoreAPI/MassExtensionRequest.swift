import DashModel
import CoreValues

/// The body of Extend Subscription Renewal Dates for All Active Subscribers
/// (`MassExtendRenewalDateRequest`), checked field by field as Apple checks it, each with Apple's
/// error code (docs/appstore-server-api.md §3.8).
struct MassExtensionRequest: Sendable, Equatable {
  var requestIdentifier: String
  var extendByDays: Int
  var reason: ExtendReasonCode
  var productId: String
  /// ISO 3166-1 alpha-3 codes; nil covers every storefront.
  var storefrontCountryCodes: [String]?

  init(body: [UInt8]) throws(APIFailure) {
    let invalidDays = APIFailure.invalidRequest(code: 4_000_009, message: ExtensionRefusal.sentence(forCode: 4_000_009))
    let invalidReason = APIFailure.invalidRequest(code: 4_000_010, message: ExtensionRefusal.sentence(forCode: 4_000_010))
    let o = try RequestBody.object(body, fields: ["requestIdentifier": Self.invalidRequestIdentifier, "extendByDays": invalidDays,
                                                  "extendReasonCode": invalidReason, "productId": Self.invalidProductId,
                                                  "storefrontCountryCodes": Self.invalidStorefront], unreadable: Self.invalidRequestIdentifier)
    guard let id = o["requestIdentifier"]?.stringValue, Self.isRequestIdentifier(id) else { throw Self.invalidRequestIdentifier }
    guard let days = Self.integer(o["extendByDays"]), ExtendRenewal.allowedDays.contains(days) else { throw invalidDays }
    guard let code = Self.integer(o["extendReasonCode"]), let reason = ExtendReasonCode(rawValue: code) else { throw invalidReason }
    guard let product = o["productId"]?.stringValue, Self.isProductId(product) else { throw Self.invalidProductId }
    switch o["storefrontCountryCodes"] {
    case nil, .null?: storefrontCountryCodes = nil
    case .array(let codes)? where !codes.isEmpty:
      storefrontCountryCodes = try codes.map { (c) throws(APIFailure) -> String in
        guard let text = c.stringValue, text.count == 3, text.allSatisfy({ $0.isASCII && $0.isUppercase }) else { throw Self.invalidStorefront }
        return text
      }
    default:
      throw APIFailure.invalidRequest(code: 4_000_027, message: "Invalid request. The storefront country code list is empty.")
    }
    requestIdentifier = id
    extendByDays = days
    self.reason = reason
    productId = product
  }

  /// Whether a subscriber whose latest transaction is `t` is part of the request: the product, and
  /// the storefront when the request names some.
  func covers(_ t: TransactionPayload?) -> Bool {
    guard let t, t.productId == productId else { return false }
    guard let storefronts = storefrontCountryCodes else { return true }
    return t.storefront.map(storefronts.contains) ?? false
  }

  static let invalidRequestIdentifier = APIFailure.invalidRequest(code: 4_000_011, message: "Invalid request identifier.")
  static let invalidProductId = APIFailure.invalidRequest(code: 4_000_023, message: "Invalid product id.")
  static let invalidStorefront = APIFailure.invalidRequest(code: 4_000_028, message: "Invalid request. A storefront country code was invalid.")

  /// Apple: a one-time UUID of at most 128 characters; any printable text is taken here.
  static func isRequestIdentifier(_ s: String) -> Bool { isPrintableWord(s, maxLength: 128) }

  static func isProductId(_ s: String) -> Bool { isPrintableWord(s, maxLength: 255) }

  /// Non-empty, at most `maxLength` characters, no spaces or control characters.
  private static func isPrintableWord(_ s: String, maxLength: Int) -> Bool {
    !s.isEmpty && s.count <= maxLength && s.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F }
  }

  /// A JSON number written as a whole number ("7", not "7.5", "7e0" or a string).
  private static func integer(_ value: JSON?) -> Int? { RequestBody.integer(value).flatMap { Int(exactly: $0) } }
}

/// One mass extension as Get Status of Subscription Renewal Date Extensions reports it, and the
/// RENEWAL_EXTENSION / SUMMARY that ended it.
struct MassExtensionProgress: Sendable {
  var request: MassExtensionRequest
  var environment: AppStoreEnvironment
  var succeeded = 0
  var failed = 0
  var completeDate: Instant?
  var summary: AppLevelNotification?

  var statusJSON: JSON {
    var fields: [(String, JSON)] = [("requestIdentifier", .string(request.requestIdentifier)), ("complete", .bool(completeDate != nil))]
    if let completeDate { fields.append(("completeDate", .double(completeDate.ms))) }
    fields += [("succeededCount", .int(Int64(succeeded))), ("failedCount", .int(Int64(failed)))]
    return .object(JSONObject(fields))
  }
}

/// A notification about the app rather than one subscriber (TEST, RENEWAL_EXTENSION / SUMMARY):
/// kept by the server, not in any subscriber's file, with its delivery attempts.
struct AppLevelNotification: Sendable {
  var environment: AppStoreEnvironment
  var signedDate: Instant
  var type: String
  var subtype: String?
  var signedPayload: String
  var attempts: [DeliveryAttempt]
}
