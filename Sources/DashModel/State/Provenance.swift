import CoreValues
/// Where one imported item came from and whether its signature was proven. SubDash stores it on
/// the item itself as `importedFrom` (a field Apple never uses), so the journal and the document
/// keep it, and the dashboard header can say `✓ Apple-signed (Sandbox)` or `unsigned (decoded payload)`.
public struct Provenance: Equatable, Hashable, Sendable {
  public enum Signature: String, Sendable, CaseIterable {
    case appleSigned = "apple-signed"
    case trustedRoot = "trusted-root"
    case unverified
    case unsigned
    case revenueCat = "revenuecat"

    /// Higher is better proof; used to pick between copies of one item from several inputs.
    var strength: Int {
      switch self {
      case .appleSigned: return 4
      case .trustedRoot: return 3
      case .unverified: return 2
      case .unsigned: return 1
      case .revenueCat: return 0
      }
    }
  }

  /// The input's label (a file name as typed, `-` for stdin, or the caller's label).
  public var input: String
  /// What the input was recognised as: "Get Transaction History", "compact JWS", …
  public var shape: String
  public var signature: Signature
  /// The payload's environment (Production, Sandbox, Xcode, LocalTesting), when it names one.
  public var environment: String?

  public init(input: String, shape: String, signature: Signature, environment: String?) {
    self.input = input
    self.shape = shape
    self.signature = signature
    self.environment = environment
  }

  public static let key = "importedFrom"

  public var json: JSON {
    var w = ObjectWriter()
    w.set("input", input)
    w.set("shape", shape)
    w.set("signature", signature.rawValue)
    w.set("environment", environment)
    return w.json
  }

  /// Reads an `importedFrom` object; nil when absent or not one SubDash wrote.
  public init?(_ json: JSON?) {
    guard let o = json?.objectValue, let input = o["input"]?.stringValue, let shape = o["shape"]?.stringValue,
          let sig = o["signature"]?.stringValue.flatMap(Signature.init(rawValue:)) else { return nil }
    self.init(input: input, shape: shape, signature: sig, environment: o["environment"]?.stringValue)
  }

  /// The header's words: `✓ Apple-signed (Sandbox)`, `locally signed, not Apple (Sandbox)` (a
  /// `--root` CA's), `unverified (Xcode)`, `unsigned (decoded payload)`,
  /// `RevenueCat`. The ASCII form spells the check mark as `OK`.
  public func badge(ascii: Bool) -> String {
    let env = environment ?? "no environment"
    switch signature {
    case .appleSigned: return (ascii ? "OK" : "\u{2713}") + " Apple-signed (\(env))"
    // `subdash verify`'s words for the same data: signed, but by a root given with --root.
    case .trustedRoot: return "locally signed, not Apple (\(env))"
    case .unverified: return "unverified (\(env))"
    case .unsigned: return "unsigned (decoded payload)"
    case .revenueCat: return "RevenueCat"
    }
  }

  /// Each distinct provenance once, in a fixed order (the document must not depend on input order).
  package static func distinctSorted(_ list: [Provenance]) -> [Provenance] {
    Array(Set(list)).sorted { a, b in
      (a.input, a.shape, a.signature.rawValue, a.environment ?? "") < (b.input, b.shape, b.signature.rawValue, b.environment ?? "")
    }
  }

  /// Ordering for picking one copy among duplicates: stronger proof, then input label, then shape.
  package static func preferred(_ a: Provenance?, over b: Provenance?) -> Bool? {
    let sa = a?.signature.strength ?? -1, sb = b?.signature.strength ?? -1
    if sa != sb { return sa > sb }
    let ka = (a?.input ?? "", a?.shape ?? ""), kb = (b?.input ?? "", b?.shape ?? "")
    if ka != kb { return ka < kb }
    return nil
  }
}

extension SubscriptionState {
  /// Where the subscriber's current data came from: the latest transaction's provenance, else the
  /// renewal info's. Nil for files SubDash did not import.
  public var importProvenance: Provenance? {
    Provenance(subscriber.latestTransaction?.source[Provenance.key]) ?? Provenance(subscriber.renewalInfo?.source[Provenance.key])
  }
}

extension SubscriptionState {
  /// RevenueCat purchases from other stores (Play Store, Stripe, promotional …), one line each:
  /// "play_store subscription com.example.annual, purchased 2022-12-20 08:34 UTC, expires 2022-12-20 09:34 UTC".
  /// They are not App Store data, so they are listed as they are, never put through Apple's rules.
  public var otherStoreLines: [String] {
    let list = document.source["imported"]?.objectValue?["otherStores"]?.arrayValue ?? []
    return list.compactMap(\.objectValue).map { o in
      var parts = [[o["store"]?.stringValue ?? "unknown store", o["kind"]?.stringValue ?? "purchase", o["productId"]?.stringValue ?? "?"].joined(separator: " ")]
      for (key, label) in [("purchase_date", "purchased"), ("expires_date", "expires"), ("refunded_at", "refunded")] {
        if let d = o[key]?.stringValue { parts.append("\(label) \(d)") }
      }
      return parts.joined(separator: ", ")
    }
  }
}
