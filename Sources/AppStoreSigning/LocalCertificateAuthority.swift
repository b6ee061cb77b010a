import Crypto
import DashModel
import FoundationEssentials
import SwiftASN1
import X509

/// A local stand-in for Apple's App Store signing chain: root (P-384) → intermediate (P-384, Apple's
/// WWDR OID) → leaf (P-256, Apple's receipt-signing OID), each with SubjectKeyIdentifier and (below the
/// root) AuthorityKeyIdentifier — without those Apple's Python library (OpenSSL X509_STRICT) rejects
/// the chain while swift-certificates accepts it. JWS it signs verify only where its root is trusted
/// (`subdash verify --root`, Apple's SignedDataVerifier with this root), never as Apple's.
///
///     let ca = try LocalCertificateAuthority.create()
///     let jws = try ca.sign(payloadJSON: Array(#"{"signedDate":1700000000000}"#.utf8))
///     try ca.save(to: "/tmp/ca")          // keys 0600; `load(from:)` refuses looser modes
///     let trustThis = ca.rootDER           // or ca.rootPEM
public struct LocalCertificateAuthority: Sendable {
  public let root: Certificate
  public let intermediate: Certificate
  public let leaf: Certificate
  let rootKey: P384.Signing.PrivateKey
  let intermediateKey: P384.Signing.PrivateKey
  let leafKey: P256.Signing.PrivateKey

  /// What to make. The defaults give a chain Apple's libraries accept; the switches exist so tests
  /// can make the chains they must reject (expired leaf, missing OIDs).
  public struct Options: Sendable {
    public var name: String
    public var notValidBefore: Date
    public var notValidAfter: Date
    /// The leaf's own validity end (defaults to `notValidAfter`): set it in the past for an expired leaf.
    public var leafNotValidAfter: Date?
    public var leafHasAppleOID: Bool
    public var intermediateHasAppleOID: Bool

    public init(
      name: String = "SubDash Local App Store CA",
      notValidBefore: Date = Date(timeIntervalSince1970: 1_577_836_800),  // 2020-01-01
      notValidAfter: Date = Date(timeIntervalSince1970: 2_524_608_000),   // 2050-01-01
      leafNotValidAfter: Date? = nil,
      leafHasAppleOID: Bool = true,
      intermediateHasAppleOID: Bool = true
    ) {
      self.name = name
      self.notValidBefore = notValidBefore
      self.notValidAfter = notValidAfter
      self.leafNotValidAfter = leafNotValidAfter
      self.leafHasAppleOID = leafHasAppleOID
      self.intermediateHasAppleOID = intermediateHasAppleOID
    }
  }

  /// Makes fresh keys and the three certificates.
  public static func create(_ options: Options = Options()) throws -> LocalCertificateAuthority {
    let rootKey = P384.Signing.PrivateKey()
    let intermediateKey = P384.Signing.PrivateKey()
    let leafKey = P256.Signing.PrivateKey()
    let rootName = try DistinguishedName {
      CommonName("\(options.name) Root")
      OrganizationName(options.name)
    }
    let intermediateName = try DistinguishedName {
      CommonName("\(options.name) Intermediate")
      OrganizationName(options.name)
    }
    let leafName = try DistinguishedName {
      CommonName("\(options.name) Signing")
      OrganizationName(options.name)
    }
    let rootSKID = SubjectKeyIdentifier(hash: Certificate.PublicKey(rootKey.publicKey))
    let intermediateSKID = SubjectKeyIdentifier(hash: Certificate.PublicKey(intermediateKey.publicKey))
    let leafSKID = SubjectKeyIdentifier(hash: Certificate.PublicKey(leafKey.publicKey))
    // Apple's marker extensions carry an ASN.1 NULL (05 00), as on Apple's certificates.
    let null: [UInt8] = [0x05, 0x00]

    let root = try Certificate(
      version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey),
      notValidBefore: options.notValidBefore, notValidAfter: options.notValidAfter,
      issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA384,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
        Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        rootSKID
      },
      issuerPrivateKey: .init(rootKey))
    var intermediateExtensions = try Certificate.Extensions {
      Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
      Critical(KeyUsage(keyCertSign: true, cRLSign: true))
      intermediateSKID
      AuthorityKeyIdentifier(keyIdentifier: rootSKID.keyIdentifier)
    }
    if options.intermediateHasAppleOID {
      try intermediateExtensions.append(Certificate.Extension(oid: AppStoreOID.wwdrIntermediate, critical: false, value: null[...]))
    }
    let intermediate = try Certificate(
      version: .v3, serialNumber: .init(), publicKey: .init(intermediateKey.publicKey),
      notValidBefore: options.notValidBefore, notValidAfter: options.notValidAfter,
      issuer: rootName, subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA384,
      extensions: intermediateExtensions, issuerPrivateKey: .init(rootKey))
    var leafExtensions = try Certificate.Extensions {
      Critical(BasicConstraints.notCertificateAuthority)
      Critical(KeyUsage(digitalSignature: true))
      leafSKID
      AuthorityKeyIdentifier(keyIdentifier: intermediateSKID.keyIdentifier)
    }
    if options.leafHasAppleOID {
      try leafExtensions.append(Certificate.Extension(oid: AppStoreOID.receiptSigner, critical: false, value: null[...]))
    }
    let leaf = try Certificate(
      version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey),
      notValidBefore: options.notValidBefore, notValidAfter: options.leafNotValidAfter ?? options.notValidAfter,
      issuer: intermediateName, subject: leafName, signatureAlgorithm: .ecdsaWithSHA384,
      extensions: leafExtensions, issuerPrivateKey: .init(intermediateKey))
    return LocalCertificateAuthority(
      root: root, intermediate: intermediate, leaf: leaf,
      rootKey: rootKey, intermediateKey: intermediateKey, leafKey: leafKey)
  }

  /// The root certificate to trust (DER).
  public var rootDER: [UInt8] { (try? Self.der(root)) ?? [] }

  /// The root certificate to trust (PEM).
  public var rootPEM: String { (try? root.serializeAsPEM().pemString) ?? "" }

  /// Signs `payloadJSON` (the bytes are used as they are) as an App Store compact JWS:
  /// header `{"alg":"ES256","x5c":[leaf,intermediate,root]}`, ES256 over `header.payload`, raw r‖s.
  public func sign(payloadJSON: [UInt8]) throws -> String {
    let x5c = try [leaf, intermediate, root].map { "\"" + Base64URL.encodeStandard(try Self.der($0)) + "\"" }
    let header = #"{"alg":"ES256","x5c":["# + x5c.joined(separator: ",") + "]}"
    let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(payloadJSON)
    let signature = try leafKey.signature(for: Array(signingInput.utf8))
    return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
  }

  static func der(_ certificate: Certificate) throws -> [UInt8] {
    var serializer = DER.Serializer()
    try serializer.serialize(certificate)
    return serializer.serializedBytes
  }
}
