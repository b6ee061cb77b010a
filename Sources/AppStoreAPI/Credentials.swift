import Crypto

/// What the App Store Server API needs to sign a bearer token. The private key never leaves this value:
/// `description` is redacted so a stray `print` or log line cannot leak it.
public struct Credentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
  public let privateKey: P256.Signing.PrivateKey
  public let keyID: String
  public let issuerID: String
  public let bundleID: String

  public init(privateKey: P256.Signing.PrivateKey, keyID: String, issuerID: String, bundleID: String) {
    self.privateKey = privateKey
    self.keyID = keyID
    self.issuerID = issuerID
    self.bundleID = bundleID
  }

  public var description: String { "Credentials(key id \(keyID), issuer \(issuerID), bundle \(bundleID), key <redacted>)" }
  public var debugDescription: String { description }
}
