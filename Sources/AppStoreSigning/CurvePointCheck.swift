import Crypto
import FoundationEssentials
import SwiftASN1

/// Whether an `x5c` certificate's EC public key is a point on its curve, checked before
/// swift-certificates parses the certificate.
///
/// Why: swift-crypto 4.5.2's `BoringSSLECPublicKeyWrapper.init(x963Representation:)` stores its
/// `EC_KEY` and then throws when the point is off the curve; a class whose init throws never runs
/// `deinit`, so every such certificate leaks ~320 bytes (found by Fuzz/JWSFuzz.swift). A JWS header
/// is parsed before anything is verified, so a stranger could grow `listen` by sending them. The
/// check only refuses: anything it cannot read is left to `Certificate(derEncoded:)`, which refuses
/// it without reaching the leaking path (a wrong length is refused before the key is allocated).
enum CurvePointCheck {
  /// The certificate's uncompressed P-256/P-384/P-521 key if it has one and it is off its curve.
  static func hasOffCurveKey(_ der: [UInt8]) -> Bool {
    guard let (curve, bits) = ecPoint(der), let field = Field.of(curve), bits.count == 1 + 2 * field.bytes, bits.first == 0x04 else {
      return false
    }
    let point = Array(bits)
    let x = field.number(point[1...field.bytes]), y = field.number(point[(1 + field.bytes)...])
    guard field.isReduced(x), field.isReduced(y) else { return true }
    // y² = x³ - 3x + b (mod p); b is taken from a point Crypto itself made (no constant to mistype).
    return field.curveConstant(x: x, y: y) != field.b
  }

  /// The named curve and the BIT STRING of an id-ecPublicKey SubjectPublicKeyInfo, read as X.509
  /// lays it out: Certificate { TBSCertificate { [0] version?, serial, signature, issuer,
  /// validity, subject, subjectPublicKeyInfo { { id-ecPublicKey, curve }, key } … } … }.
  private static func ecPoint(_ der: [UInt8]) -> (ASN1ObjectIdentifier, ArraySlice<UInt8>)? {
    guard let certificate = try? DER.parse(der), case .constructed(let parts) = certificate.content,
          let tbs = parts.first(where: { _ in true }), case .constructed(let fields) = tbs.content else { return nil }
    var sequences = fields.filter { $0.identifier == .sequence }.makeIterator()
    // signature, issuer, validity, subject, then subjectPublicKeyInfo.
    for _ in 0..<4 { _ = sequences.next() }
    guard let spki = sequences.next(), case .constructed(let spkiParts) = spki.content else { return nil }
    var items = spkiParts.makeIterator()
    guard let algorithm = items.next(), let key = items.next(), case .constructed(let algorithmParts) = algorithm.content else { return nil }
    var ids = algorithmParts.makeIterator()
    guard let kind = ids.next(), let curve = ids.next(),
          let kindOID = try? ASN1ObjectIdentifier(derEncoded: kind), kindOID == [1, 2, 840, 10045, 2, 1],
          let curveOID = try? ASN1ObjectIdentifier(derEncoded: curve),
          let bits = try? ASN1BitString(derEncoded: key), bits.paddingBits == 0 else { return nil }
    return (curveOID, bits.bytes)
  }

  /// Arithmetic modulo a NIST prime on little-endian 64-bit limbs; slow and simple (a bit at a
  /// time), which is plenty for two keys per new certificate chain.
  struct Field {
    let p: [UInt64]
    let bytes: Int
    let b: [UInt64]

    static let p256 = Field(p: [0xffffffffffffffff, 0x00000000ffffffff, 0x0000000000000000, 0xffffffff00000001], bytes: 32,
                            valid: P256.Signing.PrivateKey().publicKey.x963Representation)
    static let p384 = Field(p: [0x00000000ffffffff, 0xffffffff00000000, 0xfffffffffffffffe, 0xffffffffffffffff, 0xffffffffffffffff,
                                0xffffffffffffffff], bytes: 48, valid: P384.Signing.PrivateKey().publicKey.x963Representation)
    static let p521 = Field(p: [UInt64](repeating: .max, count: 8) + [0x1ff], bytes: 66,
                            valid: P521.Signing.PrivateKey().publicKey.x963Representation)

    static func of(_ curve: ASN1ObjectIdentifier) -> Field? {
      switch curve {
      case [1, 2, 840, 10045, 3, 1, 7]: return p256
      case [1, 3, 132, 0, 34]: return p384
      case [1, 3, 132, 0, 35]: return p521
      default: return nil
      }
    }

    private init(p: [UInt64], bytes: Int, valid point: Data) {
      let raw = Array(point)
      let partial = Field(p: p, bytes: bytes, b: [])
      self.init(p: p, bytes: bytes, b: partial.curveConstant(x: partial.number(raw[1...bytes]), y: partial.number(raw[(1 + bytes)...])))
    }

    private init(p: [UInt64], bytes: Int, b: [UInt64]) {
      self.p = p
      self.bytes = bytes
      self.b = b
    }

    /// Big-endian bytes as limbs (as many limbs as p has; the length was checked by the caller).
    func number(_ bigEndian: ArraySlice<UInt8>) -> [UInt64] {
      var limbs = [UInt64](repeating: 0, count: p.count)
      for (i, byte) in bigEndian.reversed().enumerated() { limbs[i / 8] |= UInt64(byte) << (8 * UInt64(i % 8)) }
      return limbs
    }

    func isReduced(_ a: [UInt64]) -> Bool { Self.compare(a, p) < 0 }

    /// y² - x³ + 3x, which is b for a point on the curve.
    func curveConstant(x: [UInt64], y: [UInt64]) -> [UInt64] {
      let x3 = multiply(multiply(x, x), x)
      let threeX = add(add(x, x), x)
      return add(subtract(multiply(y, y), x3), threeX)
    }

    func add(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
      var (sum, carry) = Self.add(a, b)
      if carry || Self.compare(sum, p) >= 0 { sum = Self.subtract(sum, p).difference }
      return sum
    }

    func subtract(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
      let (difference, borrow) = Self.subtract(a, b)
      return borrow ? Self.add(difference, p).sum : difference
    }

    func multiply(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
      var product = [UInt64](repeating: 0, count: 2 * p.count)
      for i in a.indices {
        var carry: UInt64 = 0
        for j in b.indices {
          let (high, low) = a[i].multipliedFullWidth(by: b[j])
          let (s1, c1) = product[i + j].addingReportingOverflow(low)
          let (s2, c2) = s1.addingReportingOverflow(carry)
          product[i + j] = s2
          carry = high &+ (c1 ? 1 : 0) &+ (c2 ? 1 : 0)
        }
        product[i + b.count] = carry
      }
      // Long division by p, one bit at a time from the top; the remainder stays below 2p.
      var remainder = [UInt64](repeating: 0, count: p.count)
      for bit in stride(from: product.count * 64 - 1, through: 0, by: -1) {
        var carry = (product[bit / 64] >> UInt64(bit % 64)) & 1
        for k in remainder.indices {
          let next = remainder[k] >> 63
          remainder[k] = remainder[k] << 1 | carry
          carry = next
        }
        if carry == 1 || Self.compare(remainder, p) >= 0 { remainder = Self.subtract(remainder, p).difference }
      }
      return remainder
    }

    static func compare(_ a: [UInt64], _ b: [UInt64]) -> Int {
      for k in a.indices.reversed() where a[k] != b[k] { return a[k] < b[k] ? -1 : 1 }
      return 0
    }

    static func add(_ a: [UInt64], _ b: [UInt64]) -> (sum: [UInt64], carry: Bool) {
      var sum = a, carry = false
      for k in a.indices {
        let (s1, c1) = a[k].addingReportingOverflow(b[k])
        let (s2, c2) = s1.addingReportingOverflow(carry ? 1 : 0)
        sum[k] = s2
        carry = c1 || c2
      }
      return (sum, carry)
    }

    static func subtract(_ a: [UInt64], _ b: [UInt64]) -> (difference: [UInt64], borrow: Bool) {
      var difference = a, borrow = false
      for k in a.indices {
        let (d1, b1) = a[k].subtractingReportingOverflow(b[k])
        let (d2, b2) = d1.subtractingReportingOverflow(borrow ? 1 : 0)
        difference[k] = d2
        borrow = b1 || b2
      }
      return (difference, borrow)
    }
  }
}
