import AppStoreSigning
import DashModel
import CoreValues
import Foundation
@testable import NotificationReceiver

/// A local App Store for the tests: a test CA with Apple's OIDs signs notifications the way Apple
/// does (nested signed transaction and renewal info), and a receiver trusts that CA's root.
struct LocalAppStore {
  static let ca = try! LocalCertificateAuthority.create()
  static let otherCA = try! LocalCertificateAuthority.create(.init(name: "Someone Else's CA"))
  let directory: URL
  let receiver: NotificationReceiver

  init(bundleId: String? = "com.example.subdash") throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-listen-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let root = try TrustedRoot(fileContents: Self.ca.rootDER, source: "test root")
    receiver = NotificationReceiver(verifier: try JWSVerifier(extraRoots: [root]), sink: DirectorySink(directory: directory.path), bundleId: bundleId)
  }

  func remove() { try? FileManager.default.removeItem(at: directory) }

  func post(_ body: [UInt8], contentType: String? = "application/json") async -> NotificationReceiver.Outcome {
    await receiver.receive(body: body, contentType: contentType)
  }

  /// Every file in the directory, for "nothing was written" checks.
  var files: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted() }

  /// Every file in the directory but the writers' lock file (`.subdash.lock`), with its bytes: a
  /// subscriber's document and its journal if it has one (a young subscriber's history is inline,
  /// StateFile.inlineHistoryLimit), for "this subscriber was left as it was" checks.
  func contents() throws -> [String: Data] {
    var out: [String: Data] = [:]
    for name in files where name != ".subdash.lock" { out[name] = try Data(contentsOf: directory.appendingPathComponent(name)) }
    return out
  }

  static let day: Int64 = 86_400_000
  static let start: Int64 = 1_780_000_000_000

  /// A V2 notification body for subscriber `otid`: its `n`th monthly period, signed at `signedAt`.
  static func body(_ type: String = "DID_RENEW", subtype: String? = nil, otid: String = "2000000100", period n: Int = 1,
                   uuid: String? = UUID().uuidString.lowercased(), signedAt: Int64? = nil, bundleId: String = "com.example.subdash",
                   price: String = "9990", expiresDate: String? = nil, signer: LocalCertificateAuthority = ca) throws -> [UInt8] {
    Array(#"{"signedPayload":"\#(try signer.sign(payloadJSON: notificationPayload(type, subtype: subtype, otid: otid, period: n, uuid: uuid, signedAt: signedAt, bundleId: bundleId, price: price, expiresDate: expiresDate, signer: signer)))"}"#.utf8)
  }

  /// The notification's payload JSON as signed (its nested transaction and renewal info signed by
  /// `signer`); `uuid` nil leaves out `notificationUUID`, `price` is written as given (raw JSON).
  static func notificationPayload(_ type: String = "DID_RENEW", subtype: String? = nil, otid: String = "2000000100", period n: Int = 1,
                                  uuid: String? = UUID().uuidString.lowercased(), signedAt: Int64? = nil, bundleId: String = "com.example.subdash",
                                  price: String = "9990", expiresDate: String? = nil, signer: LocalCertificateAuthority = ca) throws -> [UInt8] {
    let purchase = start + Int64(n - 1) * 30 * day
    let signed = signedAt ?? purchase + 1000
    let transaction = """
      {"transactionId":"\(otid)\(n)","originalTransactionId":"\(otid)","productId":"com.example.monthly","bundleId":"\(bundleId)",\
      "purchaseDate":\(purchase),"originalPurchaseDate":\(start),"expiresDate":\(expiresDate ?? String(purchase + 30 * day)),"signedDate":\(signed),\
      "environment":"Sandbox","type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED","price":\(price),"currency":"USD",\
      "subscriptionGroupIdentifier":"21000001","transactionReason":"\(n == 1 ? "PURCHASE" : "RENEWAL")","storefront":"USA"}
      """
    let renewal = """
      {"originalTransactionId":"\(otid)","autoRenewProductId":"com.example.monthly","productId":"com.example.monthly","autoRenewStatus":1,\
      "signedDate":\(signed),"environment":"Sandbox","renewalDate":\(purchase + 30 * day),"recentSubscriptionStartDate":\(start)}
      """
    let notification = """
      {"notificationType":"\(type)",\(subtype.map { "\"subtype\":\"\($0)\"," } ?? "")\(uuid.map { "\"notificationUUID\":\"\($0)\"," } ?? "")"version":"2.0",\
      "signedDate":\(signed),"data":{"bundleId":"\(bundleId)","environment":"Sandbox","status":1,\
      "signedTransactionInfo":"\(try signer.sign(payloadJSON: Array(transaction.utf8)))",\
      "signedRenewalInfo":"\(try signer.sign(payloadJSON: Array(renewal.utf8)))"}}
      """
    return Array(notification.utf8)
  }

  static func testBody(bundleId: String = "com.example.subdash") throws -> [UInt8] {
    let n = #"{"notificationType":"TEST","notificationUUID":"\#(UUID().uuidString.lowercased())","version":"2.0","signedDate":\#(start),"data":{"bundleId":"\#(bundleId)","environment":"Sandbox"}}"#
    return Array(#"{"signedPayload":"\#(try ca.sign(payloadJSON: Array(n.utf8)))"}"#.utf8)
  }
}
