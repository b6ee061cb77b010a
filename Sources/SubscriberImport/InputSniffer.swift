import CoreValues
import DashModel
import SubscriberStorage
/// Names a JSON input that cannot be imported from its top-level keys alone, before the whole
/// document is parsed: a tree of millions of small values costs more than ten times its bytes, so
/// a 100 MB file of junk objects must be refused from its first object, not after building it.
/// Looks at the first value only (the first element of an array, the first line of JSON Lines),
/// as the full reader does before anything else; when in doubt (a syntax error, an escaped key,
/// a key the importer reads) it leaves the input to the full parse, whose messages are exact.
enum InputSniffer {
  struct Refusal {
    var path: JSONPath
    var offset: Int
    var message: String
    var kind: ImportError.Kind
  }

  /// Keys whose presence means the full reader has something to look at (InputReader.readObject).
  static let readKeys: Set<String> = [
    "signedPayload", "notificationHistory", "data", "signedTransactions", "signedTransactionInfo", "signedRenewalInfo",
    "notificationType", "subscriber", "format", "transactionId", "purchaseDate", "productId", "autoRenewStatus",
    "autoRenewProductId", "renewalDate", "errorCode",
  ]

  static let unrecognisedMessage = "not an App Store or RevenueCat input: expected signedPayload, signedTransactions, data[].lastTransactions, notificationHistory, signedTransactionInfo, a decoded transaction, renewal info or notification, or a RevenueCat subscriber"

  /// Top-level keys of an App Store Server API response (as opposed to a decoded payload, whose
  /// every field is kept), and the keys the reader reads from one.
  static let responseKeys: Set<String> = ["signedPayload", "notificationHistory", "data", "signedTransactions", "signedTransactionInfo", "signedRenewalInfo"]
  static let payloadKeys: Set<String> = ["notificationType", "transactionId", "purchaseDate", "productId", "autoRenewStatus", "autoRenewProductId",
                                         "renewalDate", "subscriber", "format", "errorCode", "request_date_ms"]
  static let responseReadKeys: Set<String> = responseKeys.union(["sendAttempts", "firstSendAttemptResult", "status", "bundleId", "environment", "appAppleId"])

  /// For a document that is one App Store Server API response object: where each top-level
  /// value is (byte ranges), so the reader parses only the fields it reads and an unknown field
  /// of any size (100 MB of junk beside an empty `signedTransactions`) is skipped, its brackets
  /// and strings checked, never built into a tree. Nil for anything else (then the whole
  /// document is parsed): a decoded payload, JSON Lines, an escaped or repeated key, a syntax
  /// error the full parser should name.
  static func responseFields(_ bytes: [UInt8]) -> [(key: String, range: Range<Int>)]? {
    bytes.withUnsafeBufferPointer { b in
      var scanner = Scanner(b: b)
      return scanner.responseFields()
    }
  }

  static func sniff(_ bytes: [UInt8]) -> Refusal? {
    bytes.withUnsafeBufferPointer { b in
      var scanner = Scanner(b: b)
      return scanner.firstValue()
    }
  }

  private struct Scanner {
    let b: UnsafeBufferPointer<UInt8>
    var i = 0

    mutating func skipSpace() {
      while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    mutating func firstValue() -> Refusal? {
      if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3 }
      var path = JSONPath.root
      var depth = 0
      while true {
        skipSpace()
        guard i < b.count else { return nil }
        switch b[i] {
        case UInt8(ascii: "["):
          depth += 1
          guard depth <= 64 else { return nil }
          i += 1
          skipSpace()
          if i >= b.count || b[i] == UInt8(ascii: "]") { return nil }
          path = path.appending(0)
        case UInt8(ascii: "{"):
          return object(at: path)
        default:
          // A scalar where an App Store object is expected (the first element of an array).
          guard depth > 0 else { return nil }
          let kind: JSON = switch b[i] {
          case UInt8(ascii: "\""): .string("")
          case UInt8(ascii: "t"), UInt8(ascii: "f"): .bool(true)
          case UInt8(ascii: "n"): .null
          default: .number("0")
          }
          return Refusal(path: path, offset: i, message: "expected an App Store or RevenueCat JSON object, found \(kind.kindName)", kind: .other)
        }
      }
    }

    /// The object's keys, its values skipped; a refusal when none is one the reader reads.
    mutating func object(at path: JSONPath) -> Refusal? {
      let start = i
      i += 1
      var keys = Set<String>()
      skipSpace()
      if i < b.count, b[i] == UInt8(ascii: "}") { return refusal(keys: keys, at: path, offset: start) }
      while true {
        skipSpace()
        guard let key = plainString() else { return nil }
        keys.insert(key)
        if Self.readKeysContain(key) { return nil }
        skipSpace()
        guard i < b.count, b[i] == UInt8(ascii: ":") else { return nil }
        i += 1
        skipSpace()
        guard skipValue() else { return nil }
        skipSpace()
        guard i < b.count else { return nil }
        if b[i] == UInt8(ascii: ",") { i += 1; continue }
        guard b[i] == UInt8(ascii: "}") else { return nil }
        return refusal(keys: keys, at: path, offset: start)
      }
    }

    static func readKeysContain(_ key: String) -> Bool { InputSniffer.readKeys.contains(key) }

    mutating func responseFields() -> [(key: String, range: Range<Int>)]? {
      if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3 }
      skipSpace()
      guard i < b.count, b[i] == UInt8(ascii: "{") else { return nil }
      i += 1
      var fields: [(key: String, range: Range<Int>)] = []
      var keys = Set<String>()
      skipSpace()
      if i < b.count, b[i] == UInt8(ascii: "}") { return nil }
      while true {
        skipSpace()
        guard let key = plainString(), keys.insert(key).inserted, !InputSniffer.payloadKeys.contains(key) else { return nil }
        skipSpace()
        guard i < b.count, b[i] == UInt8(ascii: ":") else { return nil }
        i += 1
        skipSpace()
        let start = i
        guard skipValue() else { return nil }
        fields.append((key, start..<i))
        skipSpace()
        guard i < b.count else { return nil }
        if b[i] == UInt8(ascii: ",") { i += 1; continue }
        guard b[i] == UInt8(ascii: "}") else { return nil }
        i += 1
        break
      }
      // One document, nothing after it (several are JSON Lines, read a line at a time).
      skipSpace()
      guard i == b.count, !keys.isDisjoint(with: InputSniffer.responseKeys) else { return nil }
      return fields
    }

    func refusal(keys: Set<String>, at path: JSONPath, offset: Int) -> Refusal? {
      if let known = ResponseWithoutSubscriber.recognise(keys: keys) {
        return Refusal(path: path, offset: offset, message: known.explanation, kind: .noSubscriber(known))
      }
      return Refusal(path: path, offset: offset, message: InputSniffer.unrecognisedMessage, kind: .unrecognised)
    }

    /// A string without escapes (a key the reader could know); nil otherwise.
    mutating func plainString() -> String? {
      guard i < b.count, b[i] == UInt8(ascii: "\"") else { return nil }
      let start = i + 1
      var j = start
      while j < b.count, b[j] != UInt8(ascii: "\""), b[j] != UInt8(ascii: "\\"), b[j] >= 0x20 { j += 1 }
      guard j < b.count, b[j] == UInt8(ascii: "\"") else { return nil }
      i = j + 1
      return String(decoding: UnsafeBufferPointer(rebasing: b[start..<j]), as: UTF8.self)
    }

    /// Skips one value (strings with escapes, nested containers); false on anything malformed.
    mutating func skipValue() -> Bool {
      var depth = 0
      while i < b.count {
        let c = b[i]
        switch c {
        case UInt8(ascii: "\""):
          i += 1
          while i < b.count, b[i] != UInt8(ascii: "\"") { i += b[i] == UInt8(ascii: "\\") ? 2 : 1 }
          guard i < b.count else { return false }
          i += 1
          if depth == 0 { return true }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
          i += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          guard depth > 0 else { return true }
          depth -= 1
          i += 1
          if depth == 0 { return true }
        case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
          if depth == 0 { return true }
          i += 1
        default:
          i += 1
        }
      }
      return false
    }
  }
}
