import FoundationEssentials

extension Format {
  /// A price from App Store milliunits: `money(milliunits: 9990, currency: "USD") == "9.99 USD"`.
  ///
  /// Integer arithmetic only. A `Double` could print 9.989999 or round a third decimal away.
  /// Shows the currency's ISO 4217 minor digits (2 for most, 0 for JPY/KRW…, 3 for KWD/BHD…),
  /// plus a third digit when the milliunits actually carry one (`9.995 USD`, `120.5 JPY`).
  /// No thousands separators, so the text is the same in every locale and easy to grep.
  public static func money(milliunits: Int64, currency: String) -> String {
    let minor = minorDigits(currency)
    let magnitude = milliunits.magnitude
    var decimals = Civil.pad(Int(magnitude % 1_000), 3)
    while decimals.count > minor, decimals.hasSuffix("0") { decimals.removeLast() }
    let sign = milliunits < 0 ? "-" : ""
    let amount = "\(sign)\(magnitude / 1_000)" + (decimals.isEmpty ? "" : "." + decimals)
    return currency.isEmpty ? amount : "\(amount) \(currency)"
  }

  /// ISO 4217 minor-unit exponent. Most currencies use 2. These are the exceptions App Store
  /// storefronts can price in, with a few extra from the same ISO list.
  package static func minorDigits(_ currency: String) -> Int {
    switch currency.uppercased() {
    case "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF",
      "XOF", "XPF":
      return 0
    case "BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND":
      return 3
    default:
      return 2
    }
  }
}
