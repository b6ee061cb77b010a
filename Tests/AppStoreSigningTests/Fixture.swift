import AppStoreSigning
import Foundation
import Testing

/// Test data: fixture files and JWS made by a test CA, plus a tamper kit that rebuilds compact JWS
/// from parts so each rejection reason can be reached on its own.
enum Fixture {
  static func text(_ name: String) throws -> String {
    let url = try #require(Bundle.module.url(forResource: "Fixtures/" + name, withExtension: nil))
    return try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  static func bytes(_ name: String) throws -> [UInt8] {
    let url = try #require(Bundle.module.url(forResource: "Fixtures/" + name, withExtension: nil))
    return Array(try Data(contentsOf: url))
  }

  /// A transaction payload as the App Store writes it, `signedDate` in milliseconds.
  static func transaction(signedDate: Int64 = 1_700_000_000_000, environment: String = "Sandbox") -> [UInt8] {
    Array(#"{"transactionId":"2000000111","originalTransactionId":"2000000100","bundleId":"com.example","productId":"pro.monthly","environment":"\#(environment)","signedDate":\#(signedDate),"futureField":{"kept":true}}"#.utf8)
  }

  static func renewalInfo(signedDate: Int64 = 1_700_000_000_000) -> [UInt8] {
    Array(#"{"originalTransactionId":"2000000100","autoRenewProductId":"pro.monthly","productId":"pro.monthly","autoRenewStatus":1,"environment":"Sandbox","signedDate":\#(signedDate)}"#.utf8)
  }

  static func notification(transaction: String, renewal: String, signedDate: Int64 = 1_700_000_000_000) -> [UInt8] {
    Array(#"{"notificationType":"DID_RENEW","subtype":"BILLING_RECOVERY","notificationUUID":"4b0c6c8a-0000-4000-8000-000000000001","version":"2.0","signedDate":\#(signedDate),"data":{"appAppleId":1234,"bundleId":"com.example","environment":"Sandbox","signedTransactionInfo":"\#(transaction)","signedRenewalInfo":"\#(renewal)","status":1}}"#.utf8)
  }
}

/// The three parts of a compact JWS, to change one and put them back together.
struct JWSParts {
  var header: String
  var payload: String
  var signature: String

  init(_ compact: String) {
    let parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    header = parts[0]; payload = parts[1]; signature = parts[2]
  }

  var compact: String { header + "." + payload + "." + signature }

  var headerJSON: [String: Any] {
    get { (try? JSONSerialization.jsonObject(with: Self.decode(header))) as? [String: Any] ?? [:] }
    set { header = Self.encode(try! JSONSerialization.data(withJSONObject: newValue)) }
  }

  static func encode(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  static func encode(_ text: String) -> String { encode(Data(text.utf8)) }

  static func decode(_ text: String) -> Data {
    var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while s.count % 4 != 0 { s += "=" }
    return Data(base64Encoded: s) ?? Data()
  }
}

/// What a verification says, as text: the reason, or "valid".
func outcome(_ verifier: JWSVerifier, _ jws: String) async -> String {
  do {
    _ = try await verifier.verify(jws)
    return "valid"
  } catch let error as SigningError {
    return error.message
  } catch {
    return "unexpected error \(error)"
  }
}
