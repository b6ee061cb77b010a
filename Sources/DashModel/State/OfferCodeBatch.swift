import CoreValues
/// Redeemable offer-code strings. A .storekit file describes what a code *gives* (codeOffers) but
/// not the strings customers type, so the state file lists them here.
///
/// - custom: one shared code (SPRING26) with a redemption limit and optional expiry.
/// - oneTime: a batch of unique codes, each usable once.
public struct OfferCodeBatch: Equatable, Sendable {
  public enum Kind: String, Sendable { case custom, oneTime }
  public var source: JSONObject
  public var kind: Kind
  /// The subscription the code is for.
  public var productId: String
  /// Reference name of the codeOffer in the catalog (what Apple reports as offerIdentifier).
  public var offerReference: String
  /// custom: the code; oneTime: nil.
  public var code: String?
  public var codes: [String]
  public var redeemedCodes: [String]
  public var redemptionLimit: Int?
  public var redemptionCount: Int
  public var expiresDate: Instant?

  public init(_ r: ObjectReader) throws(DecodeError) {
    source = r.object
    let k = try r.requiredString("type")
    guard let kind = Kind(rawValue: k) else { throw DecodeError(r.path.appending("type"), "expected \"custom\" or \"oneTime\"") }
    self.kind = kind
    productId = try r.requiredString("productId")
    offerReference = try r.requiredString("offerReference")
    code = try r.string("code")
    codes = try r.strings("codes") ?? []
    redeemedCodes = try r.strings("redeemedCodes") ?? []
    redemptionLimit = try r.int("redemptionLimit")
    redemptionCount = try r.int("redemptionCount") ?? 0
    expiresDate = try r.instant("expiresDate")
    if kind == .custom, code == nil { throw DecodeError(r.path.appending("code"), "a custom offer code needs its \"code\" string") }
    if kind == .oneTime, codes.isEmpty { throw DecodeError(r.path.appending("codes"), "a oneTime batch needs a non-empty \"codes\" array") }
  }

  public var json: JSON {
    var w = ObjectWriter(source)
    w.set("type", kind.rawValue)
    w.set("productId", productId)
    w.set("offerReference", offerReference)
    w.set("code", code)
    if kind == .oneTime { w.set("codes", codes); w.set("redeemedCodes", redeemedCodes) }
    w.set("redemptionLimit", redemptionLimit)
    if kind == .custom { w.set("redemptionCount", redemptionCount) }
    w.set("expiresDate", expiresDate)
    return w.json
  }

  /// Offer codes are matched case-insensitively after trimming, as customers type them.
  public static func normalize(_ typed: String) -> String {
    let scalars = typed.unicodeScalars
    let trimmed = scalars.drop { $0.properties.isWhitespace }.reversed().drop { $0.properties.isWhitespace }.reversed()
    return String(String.UnicodeScalarView(trimmed)).uppercased()
  }

  public func matches(_ normalized: String) -> Bool {
    switch kind {
    case .custom: return code.map(Self.normalize) == normalized
    case .oneTime: return codes.contains { Self.normalize($0) == normalized }
    }
  }
}
