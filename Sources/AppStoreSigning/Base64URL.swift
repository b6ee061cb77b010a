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
  /// Works on the bytes, four characters at a time through a table: building a standard-base64
  /// String first cost 17 % of `listen`'s CPU, and a per-character switch still cost 5 %.
  static func decode(_ text: Substring) -> [UInt8]? {
    if let result = text.utf8.withContiguousStorageIfAvailable({ decode(bytes: $0) }) { return result }
    return Array(text.utf8).withUnsafeBufferPointer { decode(bytes: $0) }
  }

  static func decode(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
    bytes.withUnsafeBufferPointer { decode(bytes: $0) }
  }

  /// 0…63 for each base64url character, 0xFF for every other byte.
  private static let values: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (value, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8.enumerated() { table[Int(c)] = UInt8(value) }
    return table
  }()

  static func decode(bytes src: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
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
