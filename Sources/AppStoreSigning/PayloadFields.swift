import DashModel
import CoreValues

/// The few payload fields verification needs, read from the payload parsed once, strictly.
///
/// Why SubDash's own parser and not `JSONDecoder`: they disagreed on a payload with a key twice
/// (`JSONDecoder` takes the first, the importer refuses it), so the verdict could name one
/// `environment` and the stored data another. Now the one parser that reads the payload for the
/// verdict also hands it on (`object`), so nothing reads the same bytes twice (which was 3.5 % of
/// `listen`'s CPU in `JSONDecoder` alone).
struct PayloadFields: Sendable {
  struct NotificationData: Sendable {
    var environment: String?
    var signedTransactionInfo: String?
    var signedRenewalInfo: String?
  }
  struct Summary: Sendable {
    var environment: String?
  }

  var signedDate: Double?
  var environment: String?
  var transactionId: String?
  var autoRenewStatus: Int?
  var autoRenewProductId: String?
  var notificationType: String?
  var subtype: String?
  var data: NotificationData?
  var summary: Summary?
  var receiptType: String?
  /// The whole payload as parsed: unknown fields kept, no key twice.
  var object: JSONObject

  /// Reads the fields with a one-line reason when the payload is not an App Store JSON object.
  static func read(_ bytes: [UInt8]) throws -> PayloadFields {
    // A byte order mark, which the parser skips in files, is no part of a signed payload (Apple's
    // Python library refuses one too).
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { throw SigningError("payload is not a JSON object") }
    let json: JSON
    do { json = try JSONParser.parse(bytes) } catch {
      // Said before the parser's reason when the text does not even start like an object.
      let first = bytes.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
      if first != UInt8(ascii: "{") { throw SigningError("payload is not a JSON object") }
      // The reason may quote the payload (a duplicate key): a line's worth of it, not all.
      let reason = error.description
      throw SigningError("payload is not valid JSON: \(reason.count > 160 ? reason.prefix(160) + "…" : reason)")
    }
    let object: JSONObject
    switch json {
    case .object(let o): object = o
    case .null: throw SigningError("payload is JSON null, not an object")
    default: throw SigningError("payload is not a JSON object")
    }
    // Read in the order JSONDecoder read them (the declarations'), so the first wrong field named is the same.
    let signedDate = try Self.number(object, "signedDate")
    let environment = try Self.string(object, "environment")
    let transactionId = try Self.string(object, "transactionId")
    let autoRenewStatus = try Self.whole(object, "autoRenewStatus")
    let autoRenewProductId = try Self.string(object, "autoRenewProductId")
    let notificationType = try Self.string(object, "notificationType")
    let subtype = try Self.string(object, "subtype")
    let data = try Self.object(object, "data").map { d throws in
      NotificationData(environment: try Self.string(d, "environment", in: "data"),
                       signedTransactionInfo: try Self.string(d, "signedTransactionInfo", in: "data"),
                       signedRenewalInfo: try Self.string(d, "signedRenewalInfo", in: "data"))
    }
    let summary = try Self.object(object, "summary").map { s throws in Summary(environment: try Self.string(s, "environment", in: "summary")) }
    let fields = PayloadFields(
      signedDate: signedDate, environment: environment, transactionId: transactionId, autoRenewStatus: autoRenewStatus,
      autoRenewProductId: autoRenewProductId, notificationType: notificationType, subtype: subtype,
      data: data, summary: summary, receiptType: try Self.string(object, "receiptType"), object: object)
    // Checked here, for every payload (Xcode's too): the date is later given to X.509 and printed.
    if let signedDate = fields.signedDate { try SignedDateRange.check(signedDate) }
    return fields
  }

  /// A notification's signed fields by their JSON path, in the order they are verified.
  var nestedJWS: [(path: String, jws: String)] {
    [("data.signedTransactionInfo", data?.signedTransactionInfo), ("data.signedRenewalInfo", data?.signedRenewalInfo)]
      .compactMap { path, jws in jws.map { (path, $0) } }
  }

  /// An app transaction names its environment `receiptType` (Apple's AppTransaction has no
  /// `environment`), so a verdict on one says Sandbox or Production like any other payload's.
  var environmentOfPayload: String? {
    if let named = data?.environment ?? summary?.environment ?? environment { return named }
    if case .appTransaction = kind { return receiptType }
    return nil
  }

  var kind: PayloadKind {
    if let type = notificationType { return .notification(type: type, subtype: subtype) }
    if transactionId != nil { return .transaction }
    if autoRenewStatus != nil || autoRenewProductId != nil { return .renewalInfo }
    if receiptType != nil { return .appTransaction }
    return .other
  }

  // A missing field and JSON null both read as absent; any other kind of value is refused with its path.

  private static func string(_ o: JSONObject, _ key: String, in parent: String? = nil) throws -> String? {
    switch o[key] {
    case nil, .null?: return nil
    case .string(let s)?: return s
    default: throw wrongType(key, in: parent)
    }
  }

  private static func object(_ o: JSONObject, _ key: String) throws -> JSONObject? {
    switch o[key] {
    case nil, .null?: return nil
    case .object(let inner)?: return inner
    default: throw wrongType(key, in: nil)
    }
  }

  /// Any JSON number; one past what a Double holds is infinite and fails the date range check.
  private static func number(_ o: JSONObject, _ key: String) throws -> Double? {
    switch o[key] {
    case nil, .null?: return nil
    case .number(let literal)?:
      guard let value = Double(literal) else { throw wrongType(key, in: nil) }
      return value
    default: throw wrongType(key, in: nil)
    }
  }

  /// A whole number that fits an Int (`1` or `1.0`); a fraction is the wrong type.
  private static func whole(_ o: JSONObject, _ key: String) throws -> Int? {
    guard let value = try number(o, key) else { return nil }
    guard let whole = Int(exactly: value) else { throw wrongType(key, in: nil) }
    return whole
  }

  private static func wrongType(_ key: String, in parent: String?) -> SigningError {
    SigningError("payload field \(parent.map { "\($0)." } ?? "")\(key) has the wrong type")
  }
}

/// The protected header: only `alg` and `x5c` matter (a `kid`/`typ` from Xcode is ignored).
struct JWSHeader: Decodable, Sendable {
  var alg: String?
  var x5c: [String]?
}
