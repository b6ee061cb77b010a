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
  /// Works on the bytes: building a standard-base64 String first cost 17 % of `listen`'s CPU.
  static func decode(_ text: Substring) -> [UInt8]? {
    let utf8 = text.utf8
    if utf8.count % 4 == 1 { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(utf8.count * 3 / 4)
    var buffer: UInt32 = 0
    var bits = 0
    for c in utf8 {
      let v: UInt8
      switch c {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = c &- UInt8(ascii: "A")
      case UInt8(ascii: "a")...UInt8(ascii: "z"): v = c &- UInt8(ascii: "a") &+ 26
      case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c &- UInt8(ascii: "0") &+ 52
      case UInt8(ascii: "-"): v = 62
      case UInt8(ascii: "_"): v = 63
      default: return nil
      }
      buffer = (buffer << 6) | UInt32(v)
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
      }
    }
    return out
  }
}
