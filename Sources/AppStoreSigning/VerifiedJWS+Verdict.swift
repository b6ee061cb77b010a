import DashModel

extension VerifiedJWS {
  /// The verdict SubDash records beside a payload it verified: who signed it and in which
  /// environment. Import, the receiver and fetch record the same words; only the name for a
  /// payload that states no environment differs (fetch has always said "unknown").
  public func verdict(missingEnvironment: String = "no environment") -> SignatureVerdict {
    let env = environment ?? missingEnvironment
    switch signedBy {
    case .apple: return .appleSigned(environment: env)
    case .extraRoot: return .trustedRoot(environment: env)
    case .unverified(let e): return .unverified(environment: e)
    }
  }
}
