import Crypto
import FoundationEssentials
import SwiftASN1
import X509

/// A root certificate a JWS chain may end in, with the name a verdict reports.
public struct TrustedRoot: Sendable {
  public let name: String
  public let certificate: Certificate
  /// True only for the embedded Apple Root CA - G3: the one root whose verdict says "Apple-signed".
  public let isApple: Bool

  /// Apple Root CA - G3, from the embedded DER, refused if its SHA-256 is not Apple's published one.
  public static func appleRootCAG3() throws -> TrustedRoot {
    let digest = SHA256.hash(data: appleRootCAG3DER).map { byte in
      String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
    }.joined()
    guard digest == appleRootCAG3SHA256Hex else {
      throw SigningError("embedded Apple Root CA - G3 has SHA-256 \(digest), not Apple's \(appleRootCAG3SHA256Hex)")
    }
    return TrustedRoot(name: "Apple Root CA - G3", certificate: try Certificate(derEncoded: appleRootCAG3DER), isApple: true)
  }

  /// An extra root from a certificate file's bytes, DER or PEM (`source` names it in messages and verdicts).
  public init(fileContents: [UInt8], source: String) throws {
    let certificate: Certificate
    if let text = String(validating: fileContents, as: UTF8.self), text.contains("-----BEGIN CERTIFICATE-----") {
      do { certificate = try Certificate(pemEncoded: text) } catch {
        throw SigningError("\(source): not a readable PEM certificate")
      }
    } else {
      do { certificate = try Certificate(derEncoded: fileContents) } catch {
        throw SigningError("\(source): not a DER or PEM certificate")
      }
    }
    self.init(name: source, certificate: certificate, isApple: false)
  }

  /// An extra root already in hand (a local CA's root, say).
  public init(certificate: Certificate, name: String) {
    self.init(name: name, certificate: certificate, isApple: false)
  }

  private init(name: String, certificate: Certificate, isApple: Bool) {
    self.name = name
    self.certificate = certificate
    self.isApple = isApple
  }
}
