import AppStoreSigning
import Crypto
import Foundation
import Testing
import X509

/// A developer makes a local App Store CA, keeps it in a directory, and signs payloads with it.
@Suite struct LocalCertificateAuthorityTests {
  @Test func aSignedPayloadIsACompactJWSWithTheThreeCertificateChainAndARawSignature() throws {
    let ca = try LocalCertificateAuthority.create()
    let payload = Array(#"{"transactionId":"1","signedDate":1700000000000}"#.utf8)
    let jws = try ca.sign(payloadJSON: payload)

    let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
    #expect(parts.count == 3)
    let header = try #require(try JSONSerialization.jsonObject(with: base64URL(parts[0])) as? [String: Any])
    #expect(header["alg"] as? String == "ES256")
    let x5c = try #require(header["x5c"] as? [String])
    #expect(x5c.count == 3)
    #expect(try Data(base64URL(parts[1])) == Data(payload))
    let leaf = try Certificate(derEncoded: Array(try #require(Data(base64Encoded: x5c[0]))))
    let key = try #require(P256.Signing.PublicKey(leaf.publicKey))
    let signature = try P256.Signing.ECDSASignature(rawRepresentation: base64URL(parts[2]))
    #expect(signature.rawRepresentation.count == 64)
    #expect(key.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
  }

  @Test func theChainCarriesApplesOIDsAndKeyIdentifiers() throws {
    let ca = try LocalCertificateAuthority.create()
    #expect(ca.intermediate.extensions.contains { $0.oid == AppStoreOID.wwdrIntermediate })
    #expect(ca.leaf.extensions.contains { $0.oid == AppStoreOID.receiptSigner })
    for certificate in [ca.root, ca.intermediate, ca.leaf] {
      #expect(try certificate.extensions.subjectKeyIdentifier != nil)
    }
    #expect(try ca.intermediate.extensions.authorityKeyIdentifier?.keyIdentifier == ca.root.extensions.subjectKeyIdentifier?.keyIdentifier)
    #expect(try ca.leaf.extensions.authorityKeyIdentifier?.keyIdentifier == ca.intermediate.extensions.subjectKeyIdentifier?.keyIdentifier)
    #expect(P256.Signing.PublicKey(ca.leaf.publicKey) != nil)
    #expect(P384.Signing.PublicKey(ca.root.publicKey) != nil)
  }

  @Test func savedCAKeepsKeysPrivateAndLoadsBackToTheSameChain() throws {
    let dir = try TemporaryDirectory()
    let ca = try LocalCertificateAuthority.create()
    try ca.save(to: dir.path + "/ca")
    for key in ["root-key.pem", "intermediate-key.pem", "leaf-key.pem"] {
      let mode = try FileManager.default.attributesOfItem(atPath: dir.path + "/ca/" + key)[.posixPermissions] as? Int
      #expect(mode == 0o600, "\(key)")
    }
    let loaded = try LocalCertificateAuthority.load(from: dir.path + "/ca")
    #expect(loaded.root == ca.root && loaded.intermediate == ca.intermediate && loaded.leaf == ca.leaf)
    #expect(loaded.rootDER == Array(try #require(FileManager.default.contents(atPath: dir.path + "/ca/root.der"))))
    #expect(try loaded.sign(payloadJSON: Array("{}".utf8)).split(separator: ".").count == 3)
  }

  @Test func savingOverAnExistingCAIsRefused() throws {
    let dir = try TemporaryDirectory()
    try LocalCertificateAuthority.create().save(to: dir.path)
    #expect(throws: SigningError("\(dir.path)/root-key.pem: a CA already exists here; not overwriting it")) {
      try LocalCertificateAuthority.create().save(to: dir.path)
    }
  }

  @Test func aKeyReadableByOthersIsRefusedAtLoad() throws {
    let dir = try TemporaryDirectory()
    try LocalCertificateAuthority.create().save(to: dir.path)
    chmod(dir.path + "/leaf-key.pem", 0o644)
    #expect(throws: SigningError("\(dir.path)/leaf-key.pem: private key is readable by group or others (mode 644); run chmod 600 on it")) {
      try LocalCertificateAuthority.load(from: dir.path)
    }
  }
}

func base64URL(_ text: Substring) throws -> Data {
  var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
  while s.count % 4 != 0 { s += "=" }
  return try #require(Data(base64Encoded: s))
}

/// A fresh directory under the system temp dir, removed when the value goes away.
final class TemporaryDirectory {
  let path: String
  init() throws {
    path = NSTemporaryDirectory() + "appstoresigning-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }
  deinit { try? FileManager.default.removeItem(atPath: path) }
}
