/// A tiny forward-only reader over the UTF-8 bytes of a string, shared by the parsers here.
///
/// Hand-written rather than regex or `Scanner` so every parser states exactly what it accepts,
/// behaves the same on Linux and macOS, and can say precisely what went wrong.
struct TextCursor {
  let bytes: [UInt8]
  private(set) var index = 0

  init(_ text: String) { bytes = Array(text.utf8) }

  var isAtEnd: Bool { index >= bytes.count }
  var peek: UInt8? { isAtEnd ? nil : bytes[index] }

  /// The unread rest, for error messages.
  var rest: String { String(decoding: bytes[min(index, bytes.count)...], as: UTF8.self) }

  /// Consumes `byte` if it is next.
  mutating func take(_ byte: UInt8) -> Bool {
    guard peek == byte else { return false }
    index += 1
    return true
  }

  /// Consumes the exact ASCII `word` if it comes next.
  mutating func take(_ word: String) -> Bool {
    let w = Array(word.utf8)
    guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else {
      return false
    }
    index += w.count
    return true
  }

  /// Consumes a run of ASCII digits (possibly empty) and returns them.
  mutating func digits() -> String {
    let start = index
    while let b = peek, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { index += 1 }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  /// Consumes exactly the next `count` digits and returns their value, or nil (consuming
  /// nothing). A longer run of digits is left for the caller to reject.
  mutating func fixedDigits(_ count: Int) -> Int? {
    guard index + count <= bytes.count else { return nil }
    var value = 0
    for b in bytes[index..<index + count] {
      guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(b - UInt8(ascii: "0"))
    }
    index += count
    return value
  }

  mutating func skipSpaces() {
    while peek == UInt8(ascii: " ") || peek == UInt8(ascii: "\t") { index += 1 }
  }
}
