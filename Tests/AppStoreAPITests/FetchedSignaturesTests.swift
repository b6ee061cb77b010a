import AppStoreAPI
import AppStoreSigning
import DashModel
import CoreValues
import Foundation
import Testing
@testable import subdash_fetch

@Suite("Fetched signed data is verified before it becomes state")
struct FetchedSignaturesTests {
  func fetch(signedBy ca: LocalCertificateAuthority) async throws -> FetchResult {
    let team = Team()
    let server = try LocalServer(team, authority: ca)
    return try await server.run { url in
      try await withClient(team, url, clock: RecordedSleeps().clock()) { client in
        try await Fetcher(client: client).fetch(transactionID: Customer.active, choice: .sandbox)
      }
    }
  }

  @Test("every JWS, nested ones included, is signed by the --root CA: trusted-root, never Apple-signed")
  func trustedRoot() async throws {
    let ca = try LocalCertificateAuthority.create()
    let result = try await fetch(signedBy: ca)
    let verifier = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test root")])
    let signatures = await FetchedSignatures.verify(result, verifier: verifier)
    // 5 history transactions, the status and info ones, 1 renewal info, the notifications and the transactions nested in them.
    // The app transaction among them names its environment as `receiptType`, not `environment`.
    #expect(signatures.verdicts.count >= 8)
    #expect(signatures.verdicts.values.allSatisfy { $0 == .trustedRoot(environment: "Sandbox") })
  }

  @Test("each verified JWS keeps the payload verification parsed, the same the importer would decode; a refused one keeps none")
  func verifiedPayloadsAreKept() async throws {
    let ca = try LocalCertificateAuthority.create()
    let result = try await fetch(signedBy: ca)
    let trusted = await FetchedSignatures.verify(result, verifier: try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test root")]))
    #expect(trusted.payloads.count == trusted.verdicts.count)
    for jws in trusted.verdicts.keys {
      guard case .success(let decoded) = CompactJWS.payload(jws) else {
        Issue.record("a fetched JWS does not decode")
        continue
      }
      #expect(trusted.verifiedPayload(compactJWS: jws) == decoded)
    }
    #expect(trusted.verifiedPayload(compactJWS: "eyJhbGciOiJFUzI1NiJ9.e30.c2ln") == nil)
    let refused = await FetchedSignatures.verify(result, verifier: try JWSVerifier())
    #expect(refused.payloads.isEmpty)
    #expect(refused.verdicts.keys.allSatisfy { refused.verifiedPayload(compactJWS: $0) == nil })
  }

  @Test("without the CA's root the same data is refused, and the import stops with the verifier's reason")
  func untrustedRoot() async throws {
    let result = try await fetch(signedBy: try LocalCertificateAuthority.create())
    let signatures = await FetchedSignatures.verify(result, verifier: try JWSVerifier())
    #expect(!signatures.verdicts.isEmpty)
    #expect(signatures.verdicts.values.allSatisfy { if case .invalid = $0 { true } else { false } })
    let dir = NSTemporaryDirectory() + "subdash-fetchsig-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    #expect(throws: (any Error).self) {
      _ = try FetchedState.write(result, to: dir + "/state.json", checker: signatures, baseURL: nil, roots: [], catalogPath: nil, now: Date())
    }
    #expect(!FileManager.default.fileExists(atPath: dir + "/state.json"))
  }
}
