import CoreValues
/// Prices as App Store milliunits (9.99 → 9990), parsed from decimal strings without going
/// through Double, which would turn 19.99 into 19.98999…. Display goes through `Format.money`.
public enum Money {
  public static func milliunits(_ text: String, at path: JSONPath) throws(DecodeError) -> Int64 {
    guard let v = parse(text) else { throw DecodeError(path, "\"\(text)\" is not a price such as 4.99") }
    return v
  }

  /// Parses "4.99", "10", "0.5", "1234.567"; nil for anything else (negative, 4+ decimals, junk).
  public static func parse(_ text: String) -> Int64? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, whole.count <= 12,
          whole.allSatisfy({ $0.isASCII && $0.isNumber }), let w = Int64(whole) else { return nil }
    var frac: Int64 = 0
    if parts.count == 2 {
      let f = parts[1]
      guard !f.isEmpty, f.count <= 3, f.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
      frac = Int64(f + String(repeating: "0", count: 3 - f.count))!
    }
    return w * 1000 + frac
  }
}

extension Money {
  /// "9.99 USD" (or "9.99" without a currency); see `Format.money` for the digit rules.
  public static func format(_ milli: Int64, currency: String?) -> String {
    Format.money(milliunits: milli, currency: currency ?? "")
  }
}
