import Crypto
import Foundation
import Testing
import X509

@testable import AppStoreSigning

/// A stranger puts a certificate whose EC key is not a point on its curve into a JWS header
/// (found by Fuzz/JWSFuzz.swift). swift-crypto leaks the key's memory when it refuses such a point,
/// and the header is read before anything is verified, so the verifier refuses it first.
@Suite struct OffCurveKeyTests {
  /// The JWS with the `index`th certificate's public key changed in its last byte (y + 1 or y - 1).
  static func withBentKey(_ jws: String, certificate index: Int) throws -> String {
    var parts = JWSParts(jws)
    var header = parts.headerJSON
    var chain = try #require(header["x5c"] as? [String])
    var der = Array(try #require(Data(base64Encoded: chain[index])))
    let certificate = try Certificate(derEncoded: der)
    let key: [UInt8]
    if let p256 = P256.Signing.PublicKey(certificate.publicKey) { key = Array(p256.x963Representation) } else {
      key = Array(try #require(P384.Signing.PublicKey(certificate.publicKey)).x963Representation)
    }
    let at = try #require((0...(der.count - key.count)).first { Array(der[$0..<($0 + key.count)]) == key })
    der[at + key.count - 1] ^= 0x01
    chain[index] = Data(der).base64EncodedString()
    header["x5c"] = chain
    parts.headerJSON = header
    return parts.compact
  }

  @Test(arguments: [(0, "x5c[0]"), (1, "x5c[1]")])
  func aCertificateWhoseKeyIsOffItsCurveIsRefusedBeforeItIsParsed(index: Int, name: String) async throws {
    let ca = try LocalCertificateAuthority.create()
    let verifier = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test CA")], trustApple: false)
    let jws = try Self.withBentKey(try ca.sign(payloadJSON: Fixture.transaction()), certificate: index)
    #expect(await outcome(verifier, jws) == "header \(name)'s public key is not a point on its curve")
  }

  @Test func applesRealChainWithABentLeafKeyIsRefusedTheSameWay() async throws {
    let jws = try Self.withBentKey(try Fixture.text("real-apple/ruby_sandbox_transaction.jws"), certificate: 0)
    #expect(await outcome(try JWSVerifier(), jws) == "header x5c[0]'s public key is not a point on its curve")
  }

  /// Keys Crypto makes are on their curves, on all three curves X509 reads (P-521 has no App Store
  /// certificate to try it on); one changed coordinate is not.
  @Test func theFieldArithmeticAgreesWithCryptoOnEveryNISTCurve() {
    let keys: [(CurvePointCheck.Field, Data)] = [
      (.p256, P256.Signing.PrivateKey().publicKey.x963Representation),
      (.p384, P384.Signing.PrivateKey().publicKey.x963Representation),
      (.p521, P521.Signing.PrivateKey().publicKey.x963Representation),
    ]
    for (field, point) in keys {
      let raw = Array(point), n = field.bytes
      let x = field.number(raw[1...n]), y = field.number(raw[(1 + n)...])
      #expect(field.curveConstant(x: x, y: y) == field.b)
      var bent = raw
      bent[2 * n] ^= 0x01
      #expect(field.curveConstant(x: x, y: field.number(bent[(1 + n)...])) != field.b)
    }
  }
}
