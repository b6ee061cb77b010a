import CoreValues
/// The one base64 codec of SubDash: base64url (RFC 4648 §5) for every JWS and JWT it reads or
/// writes, and standard base64 (§4) where a format asks for it (`x5c` certificates, OSC 52).
/// Hand-written to keep DashModel free of Foundation. Decoding works on the bytes, four characters
/// at a time through a table: building a standard-base64 String first cost 17 % of `listen`'s CPU,
/// and a per-character switch still cost 5 %.
public enum Base64URL {
  /// Which text a decoder accepts. Mixing the forms up fails silently, so a caller names one.
  public enum Form: Sendable {
    /// base64url without padding, as JWS segments are (RFC 7515 §2): `+`, `/` or `=` is refused.
    case url
    /// Standard base64 padded to a multiple of four, as `x5c` entries are (RFC 7515 §4.1.6).
    case standard
    /// Either alphabet, padded or not: what tools write (Xcode's own signer puts standard base64
    /// in its JWS segments), for reading files and tokens that were not made by a verifier.
    case any
  }

  /// The decoded bytes, or nil when `text` holds a character outside the form, padding in the
  /// middle, or an impossible length (one leftover character).
  public static func decode<S: StringProtocol>(_ text: S, as form: Form = .any) -> [UInt8]? {
    if let result = text.utf8.withContiguousStorageIfAvailable({ decode(buffer: $0, form) }) { return result }
    return Array(text.utf8).withUnsafeBufferPointer { decode(buffer: $0, form) }
  }

  public static func decode(bytes: ArraySlice<UInt8>, as form: Form = .any) -> [UInt8]? {
    bytes.withUnsafeBufferPointer { decode(buffer: $0, form) }
  }

  /// base64url without padding.
  public static func encode(_ bytes: some Sequence<UInt8>) -> String { encode(bytes, alphabet: urlAlphabet, padded: false) }

  /// Standard base64 with `=` padding.
  public static func encodeStandard(_ bytes: some Sequence<UInt8>) -> String { encode(bytes, alphabet: standardAlphabet, padded: true) }

  private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
  private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  private static func encode(_ input: some Sequence<UInt8>, alphabet: [UInt8], padded: Bool) -> String {
    let bytes = Array(input)
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var i = 0
    while i < bytes.count {
      let n = min(3, bytes.count - i)
      let b0 = UInt32(bytes[i]), b1 = n > 1 ? UInt32(bytes[i + 1]) : 0, b2 = n > 2 ? UInt32(bytes[i + 2]) : 0
      let group = b0 << 16 | b1 << 8 | b2
      for k in 0...n { out.append(alphabet[Int((group >> UInt32(18 - 6 * k)) & 0x3F)]) }
      if padded { for _ in n..<3 { out.append(UInt8(ascii: "=")) } }
      i += 3
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// 0…63 for each character of the form's alphabet, 0xFF for every other byte.
  private static func table(_ alphabets: [[UInt8]]) -> [UInt8] {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for alphabet in alphabets {
      for (value, c) in alphabet.enumerated() { table[Int(c)] = UInt8(value) }
    }
    return table
  }
  private static let urlValues = table([urlAlphabet])
  private static let standardValues = table([standardAlphabet])
  private static let anyValues = table([urlAlphabet, standardAlphabet])

  private static func decode(buffer whole: UnsafeBufferPointer<UInt8>, _ form: Form) -> [UInt8]? {
    var n = whole.count
    if form != .url {
      // Trailing padding only (at most two); an `=` anywhere else is not in the table.
      var padding = 0
      while n > 0, whole[n - 1] == UInt8(ascii: "=") { n -= 1; padding += 1 }
      if padding > 2 { return nil }
      if form == .standard, (n + padding) % 4 != 0 { return nil }
    }
    let values: [UInt8]
    switch form {
    case .url: values = urlValues
    case .standard: values = standardValues
    case .any: values = anyValues
    }
    return decode(UnsafeBufferPointer(rebasing: whole[0..<n]), values)
  }

  private static func decode(_ src: UnsafeBufferPointer<UInt8>, _ values: [UInt8]) -> [UInt8]? {
    let n = src.count
    let leftover = n % 4
    if leftover == 1 { return nil }  // one character cannot hold a byte: the text was cut
    let count = n / 4 * 3 + (leftover == 0 ? 0 : leftover - 1)
    return values.withUnsafeBufferPointer { table -> [UInt8]? in
      var valid = true
      let out = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
        var i = 0, j = 0
        while i + 4 <= n {
          let a = table[Int(src[i])], b = table[Int(src[i + 1])], c = table[Int(src[i + 2])], d = table[Int(src[i + 3])]
          if (a | b | c | d) & 0x80 != 0 { valid = false; break }
          let v = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
          out[j] = UInt8(truncatingIfNeeded: v >> 16)
          out[j + 1] = UInt8(truncatingIfNeeded: v >> 8)
          out[j + 2] = UInt8(truncatingIfNeeded: v)
          i += 4
          j += 3
        }
        if valid && leftover > 0 {
          let a = table[Int(src[i])], b = table[Int(src[i + 1])], c = leftover == 3 ? table[Int(src[i + 2])] : 0
          if (a | b | c) & 0x80 != 0 {
            valid = false
          } else {
            let v = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
            out[j] = UInt8(truncatingIfNeeded: v >> 16)
            if leftover == 3 { out[j + 1] = UInt8(truncatingIfNeeded: v >> 8) }
          }
        }
        initialized = valid ? count : 0
      }
      return valid ? out : nil
    }
  }
}
