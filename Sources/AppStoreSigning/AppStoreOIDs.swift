import SwiftASN1
import X509

/// Apple's marker extensions on the App Store signing chain (what Apple's libraries check).
public enum AppStoreOID {
  /// On the intermediate: Apple Worldwide Developer Relations (WWDR) CA.
  public static let wwdrIntermediate: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
  /// On the leaf: Mac App Store and iTunes Store receipt signing.
  public static let receiptSigner: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
}

/// The App Store part of chain validation: exactly leaf → intermediate → root, each of the first two
/// carrying Apple's marker OID. Dates and signatures are RFC5280Policy's job.
struct AppStoreOIDPolicy: VerifierPolicy {
  let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

  func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
    guard chain.count == 3 else {
      return .failsToMeetPolicy(reason: "chain has \(chain.count) certificates, not 3")
    }
    guard chain[1].extensions.contains(where: { $0.oid == AppStoreOID.wwdrIntermediate }) else {
      return .failsToMeetPolicy(reason: "intermediate certificate lacks Apple's WWDR OID 1.2.840.113635.100.6.2.1")
    }
    guard chain[0].extensions.contains(where: { $0.oid == AppStoreOID.receiptSigner }) else {
      return .failsToMeetPolicy(reason: "leaf certificate lacks Apple's receipt-signing OID 1.2.840.113635.100.6.11.1")
    }
    return .meetsPolicy
  }
}
