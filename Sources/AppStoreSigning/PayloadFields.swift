import FoundationEssentials

/// The few payload fields verification needs; everything else stays in the untouched payload bytes.
struct PayloadFields: Decodable, Sendable {
  struct NotificationData: Decodable, Sendable {
    var environment: String?
    var signedTransactionInfo: String?
    var signedRenewalInfo: String?
  }
  struct Summary: Decodable, Sendable {
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

  /// Reads the fields with a one-line reason when the payload is not an App Store JSON object.
  static func read(_ bytes: [UInt8]) throws -> PayloadFields {
    let trimmed = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    if trimmed.starts(with: Array("null".utf8)) && trimmed.dropFirst(4).allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
      throw SigningError("payload is JSON null, not an object")
    }
    guard trimmed.first == UInt8(ascii: "{") else { throw SigningError("payload is not a JSON object") }
    let fields: PayloadFields
    do {
      fields = try JSONDecoder().decode(PayloadFields.self, from: Data(bytes))
    } catch DecodingError.typeMismatch(_, let context) {
      throw SigningError("payload field \(Self.path(context)) has the wrong type")
    } catch {
      throw SigningError("payload is not valid JSON")
    }
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

  private static func path(_ context: DecodingError.Context) -> String {
    context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
  }
}

/// The protected header: only `alg` and `x5c` matter (a `kid`/`typ` from Xcode is ignored).
struct JWSHeader: Decodable, Sendable {
  var alg: String?
  var x5c: [String]?
}
