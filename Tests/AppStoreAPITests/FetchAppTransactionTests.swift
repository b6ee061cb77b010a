import AppStoreAPI
import AppStoreSigning
import DashModel
import Foundation
import Testing
@testable import subdash_fetch
import CoreValues
import SubscriberStorage
import SubscriberImport

/// `fetch` asks Get App Transaction Info too, and records the customer's app transaction in the
/// state file, verified like every signed payload (against `subdash serve` on loopback).
@Suite("Fetching the customer's app transaction")
struct FetchAppTransactionTests {
  func fetch(signedBy ca: LocalCertificateAuthority) async throws -> (FetchResult, LocalServer) {
    let team = Team()
    let server = try LocalServer(team, authority: ca)
    let result = try await server.run { url in
      try await withClient(team, url, clock: RecordedSleeps().clock()) { client in
        try await Fetcher(client: client).fetch(transactionID: Customer.active, choice: .sandbox)
      }
    }
    return (result, server)
  }

  func scratch() throws -> String {
    let dir = NSTemporaryDirectory() + "subdash-fetchapp-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }

  @Test("the app transaction is fetched, verified and recorded with the id every transaction carries")
  func recorded() async throws {
    let ca = try LocalCertificateAuthority.create()
    let (result, server) = try await fetch(signedBy: ca)
    #expect(server.requests.all.contains("GET /sandbox/inApps/v1/transactions/appTransactions/\(Customer.active)"))
    let verifier = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test root")])
    let signatures = await FetchedSignatures.verify(result, verifier: verifier)
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try FetchedState.write(result, to: dir + "/state.json", checker: signatures, baseURL: nil, roots: [], catalogPath: nil, now: Date())
    let state = try StateFile.load(path: dir + "/state.json")
    let app = try #require(FetchedAppTransaction(document: state.document))
    #expect(app.environment == "Sandbox" && app.signature == "trusted root" && app.originalApplicationVersion == "1.0")
    #expect(app.appTransactionId == state.subscriber.latestTransaction?.source["appTransactionId"]?.stringValue)
    let served = try StateFile.load(path: server.directory + "/\(Customer.active).json")
    #expect(app.originalPurchaseDate == served.subscriber.latestTransaction?.originalPurchaseDate)
  }

  @Test("an app transaction signed by another CA stops the fetch and nothing is written")
  func forgedAppTransactionStopsTheWrite() async throws {
    let ca = try LocalCertificateAuthority.create()
    var (result, _) = try await fetch(signedBy: ca)
    let (forged, _) = try await fetch(signedBy: try LocalCertificateAuthority.create())
    result.appTransaction = forged.appTransaction
    let verifier = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test root")])
    let signatures = await FetchedSignatures.verify(result, verifier: verifier)
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    #expect {
      _ = try FetchedState.write(result, to: dir + "/state.json", checker: signatures, baseURL: nil, roots: [], catalogPath: nil, now: Date())
    } throws: { error in
      "\(error)".hasPrefix("Get App Transaction Info: signature invalid")
    }
    #expect(!FileManager.default.fileExists(atPath: dir + "/state.json"))
  }

  @Test("another app's app transaction, or another environment's, is refused")
  func foreignAppTransactionIsRefused() throws {
    struct Accepting: SignedDataChecking {
      func check(compactJWS: String) -> SignatureVerdict { .trustedRoot(environment: "Sandbox") }
    }
    func body(_ payload: String) -> [UInt8] {
      let jws = "eyJhbGciOiJFUzI1NiJ9." + Base64URL.encode(Array(payload.utf8)) + ".c2ln"
      return Array(#"{"signedAppTransactionInfo":"\#(jws)"}"#.utf8)
    }
    let other = body(#"{"appTransactionId":"704","bundleId":"com.other.app","receiptType":"Sandbox"}"#)
    let production = body(#"{"appTransactionId":"704","bundleId":"com.example.birdwatch","receiptType":"Production"}"#)
    let good = body(#"{"appTransactionId":"704","bundleId":"com.example.birdwatch","receiptType":"Sandbox","originalPurchaseDate":1700000000000}"#)
    #expect(throws: FetchedAppTransaction.Refusal.self) {
      try FetchedAppTransaction(response: other, checker: Accepting(), bundleId: "com.example.birdwatch", environment: "Sandbox")
    }
    #expect(throws: FetchedAppTransaction.Refusal.self) {
      try FetchedAppTransaction(response: production, checker: Accepting(), bundleId: "com.example.birdwatch", environment: "Sandbox")
    }
    #expect(throws: FetchedAppTransaction.Refusal.self) {
      try FetchedAppTransaction(response: Array("{}".utf8), checker: Accepting(), bundleId: "com.example.birdwatch", environment: "Sandbox")
    }
    let app = try FetchedAppTransaction(response: good, checker: Accepting(), bundleId: "com.example.birdwatch", environment: "Sandbox")
    #expect(app.appTransactionId == "704" && app.originalPurchaseDate == Instant(ms: 1_700_000_000_000))
  }
}
