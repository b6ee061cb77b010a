import DashModel

/// The signature checker `import` and the read-only view use. Until the AppStoreSigning target
/// lands on this branch, no JWS is proven, so every one is marked unverified (never Apple-signed).
enum SignatureCheck {
  static func checker() -> any SignedDataChecking { NoSignatureChecking() }
}
