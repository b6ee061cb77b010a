import AppStoreSigning
import DashModel
import CoreValues

/// The request the App Store sends a developer's realtime URL when a customer goes to cancel
/// (Retention Messaging API, `DecodedRealtimeRequestBody`): `{"signedPayload": JWS}` whose payload
/// has originalTransactionId, appAppleId, productId, userLocale, requestIdentifier, environment and
/// signedDate, signed like a notification (here by the local CA, x5c chain in the header).
/// appAppleId is `--app-apple-id`, else 0 (the field is required; Apple's verifier checks it in
/// Production only). Sent by `serve`'s performance test and by `subdash-retention` when a
/// simulated customer goes to cancel.
public enum RealtimeRequest {
  public static func signedPayload(originalTransactionId: String, productId: String, userLocale: String, environment: AppStoreEnvironment,
                            appAppleId: Int64?, requestIdentifier: String, signedDate: Instant,
                            authority: LocalCertificateAuthority) throws -> String {
    let fields: [(String, JSON)] = [
      ("originalTransactionId", .string(originalTransactionId)), ("appAppleId", .int(appAppleId ?? 0)), ("productId", .string(productId)),
      ("userLocale", .string(userLocale)), ("requestIdentifier", .string(requestIdentifier)),
      ("environment", .string(environment == .production ? "Production" : "Sandbox")), ("signedDate", .double(signedDate.ms)),
    ]
    return try authority.sign(payloadJSON: JSONWriter.write(.object(JSONObject(fields))))
  }

  public static func body(_ signedPayload: String) -> [UInt8] {
    JSONWriter.write(.object(JSONObject([("signedPayload", .string(signedPayload))])))
  }
}
