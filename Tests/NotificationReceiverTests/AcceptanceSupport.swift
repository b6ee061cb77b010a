import AppStoreSigning
import Foundation
@testable import NotificationReceiver

/// Notifications of every shape Apple sends, for the acceptance rules: one field changed at a time
/// (the environment, the bundle id, who signed a nested JWS, how an id is spelled).
extension LocalAppStore {
  static func envelope(_ notificationJSON: String, signer: LocalCertificateAuthority = ca) throws -> [UInt8] {
    Array(#"{"signedPayload":"\#(try signer.sign(payloadJSON: Array(notificationJSON.utf8)))"}"#.utf8)
  }

  /// A DID_RENEW whose `data` says `environment`/`bundleId`; its nested transaction and renewal
  /// info say theirs (the same unless given), each signed by its own signer.
  static func renewal(environment: String = "Sandbox", bundleId: String = "com.example.subdash", otid: String = "2000000100",
                      otidJSON: String? = nil, period n: Int = 1,
                      transactionEnvironment: String? = nil, transactionBundleId: String? = nil, renewalEnvironment: String? = nil,
                      transactionSigner: LocalCertificateAuthority = ca, renewalSigner: LocalCertificateAuthority = ca) throws -> [UInt8] {
    let purchase = start + Int64(n - 1) * 30 * day
    let signed = purchase + 1000
    let transaction = """
      {"transactionId":"\(otid)\(n)","originalTransactionId":\(otidJSON ?? "\"\(otid)\""),"productId":"com.example.monthly",\
      "bundleId":"\(transactionBundleId ?? bundleId)","purchaseDate":\(purchase),"originalPurchaseDate":\(start),\
      "expiresDate":\(purchase + 30 * day),"signedDate":\(signed),"environment":"\(transactionEnvironment ?? environment)",\
      "type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED","transactionReason":"\(n == 1 ? "PURCHASE" : "RENEWAL")"}
      """
    let renewal = """
      {"originalTransactionId":"\(otid)","autoRenewProductId":"com.example.monthly","productId":"com.example.monthly","autoRenewStatus":1,\
      "signedDate":\(signed),"environment":"\(renewalEnvironment ?? environment)","renewalDate":\(purchase + 30 * day)}
      """
    let notification = """
      {"notificationType":"DID_RENEW","notificationUUID":"\(UUID().uuidString.lowercased())","version":"2.0","signedDate":\(signed),\
      "data":{"bundleId":"\(bundleId)","environment":"\(environment)","status":1,\
      "signedTransactionInfo":"\(try transactionSigner.sign(payloadJSON: Array(transaction.utf8)))",\
      "signedRenewalInfo":"\(try renewalSigner.sign(payloadJSON: Array(renewal.utf8)))"}}
      """
    return try envelope(notification)
  }

  /// RESCIND_CONSENT: `appData` (with the app transaction, signed) instead of `data`.
  static func rescindConsent(bundleId: String = "com.example.subdash", environment: String = "Sandbox",
                             appTransactionSigner: LocalCertificateAuthority = ca, appTransactionEnvironment: String? = nil) throws -> [UInt8] {
    let appTransaction = """
      {"receiptType":"\(appTransactionEnvironment ?? environment)","appAppleId":1234567890,"bundleId":"\(bundleId)",\
      "applicationVersion":"1","originalApplicationVersion":"1","receiptCreationDate":\(start),"originalPurchaseDate":\(start),\
      "requestDate":\(start),"signedDate":\(start)}
      """
    return try envelope("""
      {"notificationType":"RESCIND_CONSENT","notificationUUID":"\(UUID().uuidString.lowercased())","version":"2.0","signedDate":\(start),\
      "appData":{"appAppleId":1234567890,"bundleId":"\(bundleId)","environment":"\(environment)",\
      "signedAppTransactionInfo":"\(try appTransactionSigner.sign(payloadJSON: Array(appTransaction.utf8)))"}}
      """)
  }

  /// EXTERNAL_PURCHASE_TOKEN: `externalPurchaseToken` instead of `data`, and no environment field
  /// (a sandbox token's externalPurchaseId starts with "SANDBOX").
  static func externalPurchaseToken(bundleId: String = "com.example.subdash", externalPurchaseId: String = "SANDBOX_6b2f9a1e") throws -> [UInt8] {
    try envelope("""
      {"notificationType":"EXTERNAL_PURCHASE_TOKEN","subtype":"UNREPORTED","notificationUUID":"\(UUID().uuidString.lowercased())",\
      "version":"2.0","signedDate":\(start),"externalPurchaseToken":{"externalPurchaseId":"\(externalPurchaseId)",\
      "tokenCreationDate":\(start),"appAppleId":1234567890,"bundleId":"\(bundleId)"}}
      """)
  }
}
