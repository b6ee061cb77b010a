/// base64url (RFC 4648 §5) decoding for JWS segments. JWS omits the `=` padding; standard
/// base64 characters (`+`, `/`) and padding are accepted too, because some tools (Xcode's own
/// signer among them, in its `x5c`) write them. Hand-written to keep DashModel free of Foundation.
public enum Base64URL {
  /// The decoded bytes, or nil when `text` holds a character outside the alphabet or has an
  /// impossible length (one leftover character).
  public static func decode<S: StringProtocol>(_ text: S) -> [UInt8]? { decode(bytes: Array(text.utf8)[...]) }

  public static func decode(bytes text: ArraySlice<UInt8>) -> [UInt8]? {
    var out: [UInt8] = []
    out.reserveCapacity(text.count * 3 / 4)
    var buffer: UInt32 = 0
    var bits = 0
    var padding = 0
    for c in text {
      let v: UInt8
      switch c {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = c - UInt8(ascii: "A")
      case UInt8(ascii: "a")...UInt8(ascii: "z"): v = c - UInt8(ascii: "a") + 26
      case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0") + 52
      case UInt8(ascii: "-"), UInt8(ascii: "+"): v = 62
      case UInt8(ascii: "_"), UInt8(ascii: "/"): v = 63
      case UInt8(ascii: "="): padding += 1; continue
      default: return nil
      }
      if padding > 0 { return nil }  // data after padding
      buffer = (buffer << 6) | UInt32(v)
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
      }
    }
    // 6 leftover bits cannot hold a byte: the text was cut mid-group.
    if bits >= 6 || padding > 2 { return nil }
    return out
  }

  /// Encodes without padding (tests and benchmarks build JWS with it).
  public static func encode(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 4 / 3 + 3)
    var i = 0
    while i + 3 <= bytes.count {
      let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
      out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], alphabet[Int(n & 63)]]
      i += 3
    }
    let rest = bytes.count - i
    if rest == 1 {
      let n = UInt32(bytes[i]) << 16
      out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)]]
    } else if rest == 2 {
      let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
      out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)]]
    }
    return String(decoding: out, as: UTF8.self)
  }
}
