import AppStoreSigning
import DashModel
import Foundation
import Testing
@testable import DashRuntime
@testable import SubDash
import CoreValues
import SubscriberImport

/// The adapter from AppStoreSigning's verifier to the importer's verdicts: a real Apple-signed
/// Sandbox transaction is Apple-signed, Xcode's is unverified, a foreign chain stops the import.
@Suite struct ImportSignatureTests {
  static let fixtures = DemoStateTests.repoRoot.appendingPathComponent("Tests/AppStoreSigningTests/Fixtures")

  func input(_ relative: String) throws -> ImportInput {
    ImportInput(label: (relative as NSString).lastPathComponent, bytes: Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(relative))))
  }

  @Test func verdictsMapOntoProvenance() throws {
    let checker = try SignatureCheck.checker()
    let apple = try Importer.merge(inputs: [try input("real-apple/ruby_sandbox_transaction.jws")], options: .init(checker: checker))
    #expect(Provenance(apple.latestTransaction?.source[Provenance.key])?.badge(ascii: false) == "\u{2713} Apple-signed (Sandbox)")
    let xcode = try Importer.merge(inputs: [try input("samples/xcode_xcode-signed-transaction.jws")], options: .init(checker: checker))
    #expect(Provenance(xcode.latestTransaction?.source[Provenance.key])?.signature == .unverified)
    #expect(throws: ImportError.self) {
      try Importer.merge(inputs: [try input("samples/mock_signed_data_transactionInfo.jws")], options: .init(checker: checker))
    }
    do {
      _ = try Importer.merge(inputs: [try input("samples/mock_signed_data_transactionInfo.jws")], options: .init(checker: checker))
    } catch {
      #expect(String(describing: error).hasPrefix("mock_signed_data_transactionInfo.jws:1: signature invalid: certificate chain does not end in a trusted root"))
    }
  }

  @Test func aTamperedPayloadStopsTheImport() throws {
    let text = String(decoding: try input("real-apple/ruby_sandbox_transaction.jws").bytes, as: UTF8.self)
    var parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").map(String.init)
    var payload = try #require(Base64URL.decode(parts[1]))
    let price = Array("230000".utf8)
    let at = try #require((0...(payload.count - price.count)).first { Array(payload[$0..<$0 + price.count]) == price })
    payload.replaceSubrange(at..<at + price.count, with: Array("100000".utf8))
    parts[1] = Base64URL.encode(payload)
    let tampered = ImportInput(label: "t.jws", bytes: Array(parts.joined(separator: ".").utf8))
    #expect(throws: ImportError.self) { try Importer.merge(inputs: [tampered], options: .init(checker: try SignatureCheck.checker())) }
  }

  /// A Get Transaction History page is verified as one batch (every core, the chain once): each
  /// transaction of a page a --root CA signed is marked so, and one tampered in the middle stops
  /// the import at its own index, before a later entry that is not even a string.
  @Test func aHistoryPageIsVerifiedWholeAndATamperedEntryIsNamed() throws {
    let ca = try LocalCertificateAuthority.create()
    let checker = SignatureCheck(verifier: try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test CA")]))
    func transaction(_ i: Int64) -> [UInt8] {
      let purchase = 1_700_000_000_000 + i * 300_000
      return Array(#"{"transactionId":"\#(2_000_000_000 + i)","originalTransactionId":"2000000000","bundleId":"com.example","productId":"pro.monthly","purchaseDate":\#(purchase),"originalPurchaseDate":1700000000000,"expiresDate":\#(purchase + 300_000),"signedDate":\#(purchase + 1000),"environment":"Sandbox","type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED"}"#.utf8)
    }
    func page(_ entries: [String]) -> ImportInput {
      ImportInput(label: "page.json", bytes: Array(#"{"revision":"r","bundleId":"com.example","environment":"Sandbox","hasMore":false,"signedTransactions":[\#(entries.joined(separator: ","))]}"#.utf8))
    }
    var jws = try (0..<30).map { try ca.sign(payloadJSON: transaction(Int64($0))) }
    let merged = try Importer.merge(inputs: [page(jws.map { "\"\($0)\"" })], options: .init(checker: checker))
    #expect(merged.transactions.count == 30)
    #expect(merged.transactions.allSatisfy { Provenance($0.source[Provenance.key])?.signature == .trustedRoot })

    var parts = jws[17].split(separator: ".").map(String.init)
    parts[1] = String(jws[18].split(separator: ".")[1])
    jws[17] = parts.joined(separator: ".")
    var entries = jws.map { "\"\($0)\"" }
    entries[25] = "42"
    #expect(throws: ImportError(input: "page.json", line: 1, path: JSONPath([.key("signedTransactions"), .index(17)]),
                                message: "signature invalid: signature does not match header.payload for the leaf certificate's key")) {
      try Importer.merge(inputs: [page(entries)], options: .init(checker: checker))
    }
    entries[17] = "\"\(jws[16])\""
    #expect(throws: ImportError(input: "page.json", line: 1, path: JSONPath([.key("signedTransactions"), .index(25)]),
                                message: "expected a JWS string, found a number")) {
      try Importer.merge(inputs: [page(entries)], options: .init(checker: checker))
    }
  }
}
