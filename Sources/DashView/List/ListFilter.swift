import DashModel

/// What a support person types to find subscribers: words separated by spaces, all of which must
/// match. `status:grace` and `flag:refunded` match the status or a flag by name (a prefix is
/// enough: `status:ret`); `product:premium` matches the product id or name; any other word
/// matches part of an id (originalTransactionId, transactionId, order id), the appAccountToken,
/// the product or the file name. Case never matters; a trailing `…` (pasted from the screen) is
/// ignored.
public struct ListFilter: Equatable, Sendable {
  public enum Term: Equatable, Sendable {
    case status([ListStatus])
    case flag([ListFlag])
    case product(String)
    case text(String)
  }

  public var terms: [Term]

  public init(_ text: String) {
    terms = text.split(separator: " ").compactMap { Self.term(String($0)) }
  }

  public var isEmpty: Bool { terms.isEmpty }

  /// For a filter given whole (`subdash list --filter`), not typed key by key: a `status:` or
  /// `flag:` word that names nothing would quietly print no rows, so it is said instead.
  public static func problem(in text: String) -> String? {
    for raw in text.split(separator: " ").map(String.init) {
      switch term(raw) {
      case .status(let any)? where any.isEmpty:
        return "\(raw) names no status (\(ListStatus.allCases.map(\.rawValue).joined(separator: ", ")))"
      case .flag(let any)? where any.isEmpty:
        return "\(raw) names no flag (\(ListFlag.allCases.map(\.rawValue).joined(separator: ", ")))"
      default: continue
      }
    }
    return nil
  }

  private static func term(_ raw: String) -> Term? {
    var word = raw.lowercased()
    for tail in ["…", "..."] where word.hasSuffix(tail) { word.removeLast(tail.count) }
    if let colon = word.firstIndex(of: ":") {
      let key = word[..<colon], value = String(word[word.index(after: colon)...])
      switch key {
      case "status", "s":
        return .status(ListStatus.allCases.filter { $0.rawValue.hasPrefix(value) || $0.word.lowercased().hasPrefix(value) })
      case "flag", "f":
        return .flag(ListFlag.allCases.filter { $0.rawValue.hasPrefix(value) || $0.word.hasPrefix(value) })
      case "product", "p":
        return value.isEmpty ? nil : .product(value)
      default: break
      }
    }
    return word.isEmpty ? nil : .text(word)
  }

  /// True when `row` matches every term. `haystack` is the row's lowercased search text
  /// (`ListRow.searchText`), computed once per row rather than once per keystroke.
  public func matches(_ row: ListRow, haystack: [UInt8]) -> Bool {
    for term in terms {
      switch term {
      case .status(let any): if !any.contains(row.status) { return false }
      case .flag(let any): if !any.contains(where: row.flags.contains) { return false }
      case .product(let p):
        let name = Array(((row.productId ?? "") + "\u{1}" + (row.productName ?? "")).lowercased().utf8)
        if !Self.contains(name, Array(p.utf8)) { return false }
      case .text(let t): if !Self.contains(haystack, Array(t.utf8)) { return false }
      }
    }
    return true
  }

  /// Byte substring search: the filter runs over every row on every keystroke, and comparing
  /// UTF-8 bytes avoids String's per-character grapheme work (lowercased text, so bytes suffice).
  static func contains(_ hay: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty else { return true }
    guard hay.count >= needle.count else { return false }
    let first = needle[0]
    return hay.withUnsafeBufferPointer { h in
      needle.withUnsafeBufferPointer { n in
        var i = 0
        let last = h.count - n.count
        while i <= last {
          if h[i] == first {
            var j = 1
            while j < n.count && h[i + j] == n[j] { j += 1 }
            if j == n.count { return true }
          }
          i += 1
        }
        return false
      }
    }
  }
}

extension ListRow {
  /// Every id-like field, lowercased and joined by a separator no term contains, for `ListFilter`.
  public var searchText: [UInt8] {
    var out: [UInt8] = []
    appendSearchText(to: &out)
    return out
  }

  /// `searchText` written straight into a buffer (the list's search keeps every row's in one).
  func appendSearchText(to out: inout [UInt8]) {
    for part in [file, originalTransactionId, appAccountToken, productId, productName] {
      if let part { Self.appendLowercased(part, to: &out) }
      out.append(1)
    }
    for id in otherIds {
      Self.appendLowercased(id, to: &out)
      out.append(1)
    }
  }

  /// The product id and name, lowercased, for `product:` terms.
  func appendProductText(to out: inout [UInt8]) {
    if let productId { Self.appendLowercased(productId, to: &out) }
    out.append(1)
    if let productName { Self.appendLowercased(productName, to: &out) }
  }

  /// ASCII is copied and lowercased in place (ids, tokens, most names); anything else goes
  /// through String's full lowercasing. 100,000 rows are built on every open, so the common case
  /// must be a copy.
  static func appendLowercased(_ text: String, to out: inout [UInt8]) {
    let start = out.count
    let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes in
      var high: UInt8 = 0
      for b in bytes { high |= b }
      guard high < 0x80 else { return false }
      out.append(contentsOf: bytes)
      return true
    }
    if copied == true {
      out.withUnsafeMutableBufferPointer { buffer in
        for i in start..<buffer.count where buffer[i] &- 0x41 < 26 { buffer[i] |= 0x20 }
      }
    } else {
      out.append(contentsOf: text.lowercased().utf8)
    }
  }
}
