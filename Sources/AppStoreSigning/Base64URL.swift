import FoundationEssentials

/// JWS segments are base64url without padding (RFC 7515 §2); `x5c` entries are standard base64
/// with padding (RFC 7515 §4.1.6). Mixing them up fails silently, so each has its own function.
enum Base64URL {
  static func encode(_ bytes: some Sequence<UInt8>) -> String {
    var text = Data(bytes).base64EncodedString()
    while text.last == "=" { text.removeLast() }
    return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
  }

  /// nil when the text is not base64url (a `+`, `/`, `=` or any other stray character counts).
  static func decode(_ text: Substring) -> [UInt8]? {
    var standard = ""
    standard.reserveCapacity(text.utf8.count + 3)
    for c in text.unicodeScalars {
      switch c {
      case "A"..."Z", "a"..."z", "0"..."9": standard.unicodeScalars.append(c)
      case "-": standard.append("+")
      case "_": standard.append("/")
      default: return nil
      }
    }
    if standard.utf8.count % 4 == 1 { return nil }
    while standard.utf8.count % 4 != 0 { standard.append("=") }
    return Data(base64Encoded: standard).map { [UInt8]($0) }
  }
}
