import DashModel
import CoreValues

/// A request body read the way Apple's API reads it: each field must be of its type, and a refusal
/// is Apple's error for that field. Read strictly (`JSONParser`: no key twice), because
/// JSONSerialization, which read some bodies before, took `true` and `1.9` as the number 1, kept one
/// of two equal keys silently, and wrapped 9223372036854775808 into a negative Int that went back
/// to the client in the error message.
enum RequestBody {
  /// The body's object. A body that is not one is `unreadable`; a key given twice is the error of
  /// that field (`fields`), else `unreadable`: Apple takes no body with a field given twice.
  static func object(_ body: [UInt8], fields: [String: APIFailure], unreadable: APIFailure) throws(APIFailure) -> JSONObject {
    let parsed: JSON
    do { parsed = try JSONParser.parse(body) } catch {
      if let key = duplicateKey(error, in: body) { throw fields[key] ?? unreadable }
      throw unreadable
    }
    guard case .object(let o) = parsed else { throw unreadable }
    return o
  }

  /// A whole number spelled as one (`7`, `-7`; not `7.0`, `7e0`, `true`, `"7"`) that fits in 64
  /// bits; nil otherwise, so nothing is rounded, taken from another type or wrapped.
  static func integer(_ value: JSON?) -> Int64? {
    guard case .number(let text)? = value else { return nil }
    return Int64(text)
  }

  /// A JSON number of any spelling that is finite as a Double (dates in milliseconds); nil for
  /// another type.
  static func number(_ value: JSON?) -> Double? {
    guard case .number(let text)? = value, let d = Double(text), d.isFinite else { return nil }
    return d
  }

  /// The key a duplicate-key error is about: the JSON string that starts at its offset.
  private static func duplicateKey(_ error: JSONSyntaxError, in body: [UInt8]) -> String? {
    guard error.message.hasPrefix("duplicate key"), error.offset >= 0, error.offset < body.count, body[error.offset] == UInt8(ascii: "\"") else {
      return nil
    }
    var i = error.offset + 1
    while i < body.count, body[i] != UInt8(ascii: "\"") { i += body[i] == UInt8(ascii: "\\") ? 2 : 1 }
    guard i < body.count, case .string(let key)? = try? JSONParser.parse(Array(body[error.offset...i])) else { return nil }
    return key
  }
}
