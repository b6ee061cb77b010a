import DashModel
import Foundation
import Testing
@testable import DashRuntime
@testable import SubDash

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
}
