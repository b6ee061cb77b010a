import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberImport

/// Builds App Store-shaped inputs for import tests: compact JWS around a JSON payload (the
/// signature part is filler; the verdict comes from the test's checker), transactions, bodies.
enum ImportKit {
  static func jws(_ payload: String) -> String {
    Base64URL.encode(Array(#"{"alg":"ES256","x5c":[]}"#.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + "." + Base64URL.encode([1, 2, 3])
  }

  static func transaction(_ id: Int, otid: String = "1000", purchase: Int64, signed: Int64? = nil, product: String = "pro.monthly",
                          env: String = "Sandbox", extra: String = "") -> String {
    #"{"transactionId":"\#(id)","originalTransactionId":"\#(otid)","productId":"\#(product)","subscriptionGroupIdentifier":"G1","purchaseDate":\#(purchase),"expiresDate":\#(purchase + 300_000),"signedDate":\#(signed ?? purchase),"price":9990,"currency":"USD","environment":"\#(env)","type":"Auto-Renewable Subscription"\#(extra)}"#
  }

  static func renewal(otid: String = "1000", signed: Int64, autoRenew: Int = 1) -> String {
    #"{"originalTransactionId":"\#(otid)","productId":"pro.monthly","autoRenewProductId":"pro.monthly","autoRenewStatus":\#(autoRenew),"signedDate":\#(signed),"environment":"Sandbox"}"#
  }

  static func notification(uuid: String, type: String, signed: Int64, transaction: String) -> String {
    #"{"notificationType":"\#(type)","notificationUUID":"\#(uuid)","signedDate":\#(signed),"data":{"environment":"Sandbox","status":1,"signedTransactionInfo":"\#(jws(transaction))"}}"#
  }

  /// A Get Transaction History page.
  static func historyPage(_ transactions: [String], hasMore: Bool) -> String {
    #"{"revision":"r","bundleId":"com.example","environment":"Sandbox","hasMore":\#(hasMore),"signedTransactions":[\#(transactions.map { "\"\(jws($0))\"" }.joined(separator: ","))]}"#
  }

  static func input(_ label: String, _ text: String) -> ImportInput { ImportInput(label: label, bytes: Array(text.utf8)) }

  static func merge(_ inputs: [ImportInput], otid: String? = nil, checker: any SignedDataChecking = AppleSays()) throws(ImportError) -> ImportMerge {
    try Importer.merge(inputs: inputs, options: .init(originalTransactionId: otid, checker: checker))
  }
}

/// A checker that answers like the real verifier for Apple-signed Sandbox data. Tests are about the
/// importer's handling of verdicts; the verifier has its own tests in AppStoreSigning.
struct AppleSays: SignedDataChecking {
  func check(compactJWS: String) -> SignatureVerdict {
    .appleSigned(environment: CompactJWS.payloadEnvironment(compactJWS) ?? "?")
  }
}

/// A checker that rejects every JWS with the given reason.
struct Rejects: SignedDataChecking {
  let reason: String
  func check(compactJWS: String) -> SignatureVerdict { .invalid(reason) }
}
