import AppStoreSigning
import DashModel
import CoreValues

/// Signs a notification as the App Store does: the transaction and renewal info first, each a
/// JWS of its own, then the envelope that carries them, all by the local test CA's leaf.
public struct NotificationSigner: Sendable {
  public let authority: LocalCertificateAuthority

  public init(authority: LocalCertificateAuthority) {
    self.authority = authority
  }

  /// The `signedPayload` to POST as `{"signedPayload": "…"}`.
  public func signedPayload(_ envelope: NotificationEnvelope) throws -> String {
    let transaction = try envelope.transaction.map { try authority.sign(payloadJSON: JSONWriter.write(.object($0))) }
    let renewal = try envelope.renewalInfo.map { try authority.sign(payloadJSON: JSONWriter.write(.object($0))) }
    let payload = envelope.payload(signedTransactionInfo: transaction, signedRenewalInfo: renewal)
    return try authority.sign(payloadJSON: JSONWriter.write(payload))
  }

  /// The request body Apple sends.
  public static func body(_ signedPayload: String) -> [UInt8] {
    JSONWriter.write(.object(JSONObject([("signedPayload", .string(signedPayload))])))
  }
}
