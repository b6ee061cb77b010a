/// A JSON value that keeps everything a state file says: object key order, number literals as
/// written (so `1697679936049.7297` or `10990` round-trip byte for byte) and fields SubDash does
/// not understand. Foundation's JSONSerialization loses order and number spelling, and
/// JSONDecoder drops unknown keys, which is why the model has its own value type.
public enum JSON: Equatable, Sendable {
  case null
  case bool(Bool)
  /// The number exactly as written in the file (validated JSON number grammar).
  case number(String)
  case string(String)
  case array([JSON])
  case object(JSONObject)

  public static func int(_ v: Int64) -> JSON { .number(String(v)) }
  public static func int(_ v: Int) -> JSON { .number(String(v)) }

  /// A JSON number for a double, written without exponent for whole values (ms timestamps).
  public static func double(_ v: Double) -> JSON {
    if v.isFinite, v == v.rounded(), abs(v) < 9.0e15 { return .number(String(Int64(v))) }
    return .number(v.isFinite ? String(v) : "0")
  }

  /// Name of the value's kind, for error messages ("expected a string, found a number").
  public var kindName: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  public var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }
  public var arrayValue: [JSON]? { if case .array(let a) = self { return a } else { return nil } }
  public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
}

/// An ordered JSON object. Lookups are linear: state-file objects have a few dozen keys at most,
/// and a linear scan over a small array beats hashing for that size.
public struct JSONObject: Equatable, Sendable {
  public private(set) var entries: [(key: String, value: JSON)]

  public init() { entries = [] }
  public init(_ entries: [(String, JSON)]) { self.entries = entries.map { (key: $0.0, value: $0.1) } }

  public var keys: [String] { entries.map(\.key) }
  public var count: Int { entries.count }

  public subscript(key: String) -> JSON? {
    get {
      // Scan through a buffer pointer: iterating the array of (String, JSON) tuples by value
      // retains and releases both halves of every entry, which dominated decoding profiles.
      // Comparing UTF-8 lengths first (O(1) for Swift strings) skips almost every full string
      // comparison: a TransactionPayload reads 29 keys from objects of ~20.
      let length = key.utf8.count
      return entries.withUnsafeBufferPointer { buf in
        for i in buf.indices where buf[i].key.utf8.count == length && buf[i].key == key { return buf[i].value }
        return nil
      }
    }
    set {
      if let i = entries.firstIndex(where: { $0.key == key }) {
        if let newValue { entries[i].value = newValue } else { entries.remove(at: i) }
      } else if let newValue {
        entries.append((key: key, value: newValue))
      }
    }
  }

  /// Takes the parser's entries as they are; the parser has already rejected duplicates.
  init(entries: [(key: String, value: JSON)]) { self.entries = entries }

  /// Appends without checking for an existing key; the parser has already rejected duplicates.
  mutating func appendUnchecked(_ key: String, _ value: JSON) { entries.append((key: key, value: value)) }

  public static func == (a: JSONObject, b: JSONObject) -> Bool {
    a.entries.count == b.entries.count
      && zip(a.entries, b.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
  }
}

/// Where a value sits in a document: `$.subscriber.transactions[3].price`.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible {
  public enum Component: Hashable, Sendable {
    case key(String)
    case index(Int)
  }

  public var components: [Component]

  public init(_ components: [Component] = []) { self.components = components }
  public static let root = JSONPath()

  public func appending(_ key: String) -> JSONPath { JSONPath(components + [.key(key)]) }
  public func appending(_ index: Int) -> JSONPath { JSONPath(components + [.index(index)]) }
  func appending(_ c: Component) -> JSONPath { JSONPath(components + [c]) }

  public var description: String {
    var s = "$"
    for c in components {
      switch c {
      case .key(let k):
        if !k.isEmpty, k.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) { s += "." + k } else { s += "[\"\(k)\"]" }
      case .index(let i): s += "[\(i)]"
      }
    }
    return s
  }
}
