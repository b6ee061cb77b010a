import AppStoreAPI
import Crypto
import Foundation
import NIOSSL
import Testing
import X509

/// `--root CERT`: a server with a private certificate (a test CA made here) is trusted only when
/// its root is given; the system roots alone refuse it.
@Suite("HTTPS to a server whose certificate chains to a --root")
struct TLSRootTests {
  struct PrivateServer {
    let rootPEMPath: String
    let tls: TLSConfiguration

    init() throws {
      let now = Date()
      let caKey = P256.Signing.PrivateKey()
      let caName = try DistinguishedName { CommonName("SubDash test TLS root") }
      let caSKID = SubjectKeyIdentifier(hash: Certificate.PublicKey(caKey.publicKey))
      let ca = try Certificate(
        version: .v3, serialNumber: .init(), publicKey: .init(caKey.publicKey),
        notValidBefore: now - 3600, notValidAfter: now + 3600, issuer: caName, subject: caName,
        signatureAlgorithm: .ecdsaWithSHA256,
        extensions: try Certificate.Extensions {
          Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
          Critical(KeyUsage(keyCertSign: true))
          caSKID
        },
        issuerPrivateKey: .init(caKey))
      let leafKey = P256.Signing.PrivateKey()
      let leaf = try Certificate(
        version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey),
        notValidBefore: now - 3600, notValidAfter: now + 3600, issuer: caName,
        subject: try DistinguishedName { CommonName("127.0.0.1") },
        signatureAlgorithm: .ecdsaWithSHA256,
        extensions: try Certificate.Extensions {
          SubjectAlternativeNames([.ipAddress(.init(contentBytes: [127, 0, 0, 1]))])
          AuthorityKeyIdentifier(keyIdentifier: caSKID.keyIdentifier)
          try ExtendedKeyUsage([.serverAuth])
        },
        issuerPrivateKey: .init(caKey))
      rootPEMPath = NSTemporaryDirectory() + "subdash-tls-root-\(UUID().uuidString).pem"
      try ca.serializeAsPEM().pemString.write(toFile: rootPEMPath, atomically: true, encoding: .utf8)
      tls = TLSConfiguration.makeServerConfiguration(
        certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(try leaf.serializeAsPEM().pemString.utf8), format: .pem))],
        privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(leafKey.pemRepresentation.utf8), format: .pem)))
    }
  }

  @Test("with --root the private server answers; without it the TLS handshake is refused")
  func rootIsNeeded() async throws {
    let server = try PrivateServer()
    let team = Team()
    let local = try LocalServer(team)
    let root = server.rootPEMPath
    let (trusted, refused) = try await local.run(tls: server.tls) { url in
      #expect(url.hasPrefix("https://127.0.0.1:"))
      let body = try await withClient(team, url, clock: RecordedSleeps().clock(), trustRootFiles: [root]) { client in
        try await client.transactionInfo(Customer.active, environment: .sandbox)
      }
      let error = try await withClient(team, url, clock: RecordedSleeps().clock(), retry: RetryPolicy(maxAttempts: 1)) { client in
        await fetchError { _ = try await client.transactionInfo(Customer.active, environment: .sandbox) }
      }
      return (body, error)
    }
    #expect(String(decoding: trusted, as: UTF8.self).contains("signedTransactionInfo"))
    #expect(refused?.description.contains("cannot reach 127.0.0.1: TLS") == true)
  }
}
