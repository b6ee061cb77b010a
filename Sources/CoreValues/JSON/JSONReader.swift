/// A type error found while reading a parsed document: the JSON path of the offending value and
/// what was wrong with it. Storage turns the path into a line and column for the message.
public struct DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
  public var path: JSONPath
  public var message: String
  public init(_ path: JSONPath, _ message: String) {
    self.path = path
    self.message = message
  }
  public var description: String { "\(path): \(message)" }
}

/// Typed, path-aware access to one JSON object. Missing keys and `null` both read as nil (the
/// App Store omits fields freely); a present value of the wrong kind is an error naming its path.
public struct ObjectReader: Sendable {
  public let object: JSONObject
  // The path is built only when asked for (errors, nested readers): an array of 100,000 history
  // entries would otherwise allocate a path per entry just in case one of them is wrong.
  private let parentPath: JSONPath
  private let lastComponent: JSONPath.Component?

  public var path: JSONPath { lastComponent.map { parentPath.appending($0) } ?? parentPath }

  public init(_ object: JSONObject, at path: JSONPath) {
    self.object = object
    parentPath = path
    lastComponent = nil
  }

  /// The reader for element `index` of the array at `arrayPath`.
  package init(_ object: JSONObject, in arrayPath: JSONPath, index: Int) {
    self.object = object
    parentPath = arrayPath
    lastComponent = .index(index)
  }

  public init(_ json: JSON, at path: JSONPath) throws(DecodeError) {
    guard case .object(let o) = json else { throw DecodeError(path, "expected an object, found \(json.kindName)") }
    self.init(o, at: path)
  }

  private func value(_ key: String) -> JSON? {
    guard let v = object[key], v != .null else { return nil }
    return v
  }

  private func mismatch(_ key: String, _ expected: String, _ v: JSON) -> DecodeError {
    DecodeError(path.appending(key), "expected \(expected), found \(v.kindName)")
  }

  public func has(_ key: String) -> Bool { value(key) != nil }

  public func string(_ key: String) throws(DecodeError) -> String? {
    guard let v = value(key) else { return nil }
    guard case .string(let s) = v else { throw mismatch(key, "a string", v) }
    return s
  }

  public func requiredString(_ key: String) throws(DecodeError) -> String {
    guard let s = try string(key) else { throw DecodeError(path.appending(key), "required string is missing") }
    return s
  }

  public func bool(_ key: String) throws(DecodeError) -> Bool? {
    guard let v = value(key) else { return nil }
    guard case .bool(let b) = v else { throw mismatch(key, "true or false", v) }
    return b
  }

  public func int(_ key: String) throws(DecodeError) -> Int? {
    guard let v = try int64(key) else { return nil }
    guard let i = Int(exactly: v) else { throw DecodeError(path.appending(key), "integer out of range") }
    return i
  }

  public func int64(_ key: String) throws(DecodeError) -> Int64? {
    guard let v = value(key) else { return nil }
    guard case .number(let n) = v else { throw mismatch(key, "an integer", v) }
    if let i = Int64(n) { return i }
    // Accept integral values written with a fraction or exponent (1.0, 1e3) but nothing lossy.
    if let d = Double(n), d == d.rounded(), abs(d) < 9.0e18 { return Int64(d) }
    throw DecodeError(path.appending(key), "expected an integer, found \(n)")
  }

  public func double(_ key: String) throws(DecodeError) -> Double? {
    guard let v = value(key) else { return nil }
    guard case .number(let n) = v, let d = Self.wholeNumber(n) ?? Double(n) else { throw mismatch(key, "a number", v) }
    // 1e999 is valid JSON but no Double: say so rather than "expected a number, found a number".
    guard d.isFinite else { throw DecodeError(path.appending(key), "number \(n) is out of range") }
    return d
  }

  /// A literal of up to 15 digits (a millisecond timestamp), read without the general decimal
  /// conversion: every such integer is a Double exactly, so this is the value `Double(n)` gives.
  /// Anything else (a sign, a fraction, an exponent, more digits) is nil and left to `Double(n)`.
  @inline(__always)
  static func wholeNumber(_ n: String) -> Double? {
    var n = n
    return n.withUTF8 { u in
      guard !u.isEmpty, u.count <= 15 else { return nil }
      var v: Int64 = 0
      for b in u {
        guard b >= 0x30 && b <= 0x39 else { return nil }
        v = v &* 10 &+ Int64(b &- 0x30)
      }
      return Double(v)
    }
  }

  /// Milliseconds since 1970, integer or fractional (Xcode writes fractional ms).
  /// (The range is `Instant.fileRange`.)
  /// Values outside year 1900…3000 are rejected: they are almost always seconds-vs-ms mistakes
  /// or corruption, and would make every countdown meaningless.
  public func instant(_ key: String) throws(DecodeError) -> Instant? {
    guard let d = try double(key) else { return nil }
    guard Instant.fileRange.contains(Instant(ms: d)) else {
      // Quote the number as written (253402300799000, not 253402300799000.0).
      let literal = object[key].flatMap { if case .number(let n) = $0 { return n } else { return nil } } ?? "\(d)"
      throw DecodeError(path.appending(key), "date \(literal) ms is outside years 1900–3000 (milliseconds since 1970 expected)")
    }
    return Instant(ms: d)
  }

  public func object(_ key: String) throws(DecodeError) -> ObjectReader? {
    guard let v = value(key) else { return nil }
    guard case .object(let o) = v else { throw mismatch(key, "an object", v) }
    return ObjectReader(o, at: path.appending(key))
  }

  public func array(_ key: String) throws(DecodeError) -> [(JSON, JSONPath)]? {
    guard let v = value(key) else { return nil }
    guard case .array(let a) = v else { throw mismatch(key, "an array", v) }
    let p = path.appending(key)
    return a.enumerated().map { ($0.element, p.appending($0.offset)) }
  }

  /// An array of objects, each read by `read`.
  public func objects<T>(_ key: String, _ read: (ObjectReader) throws(DecodeError) -> T) throws(DecodeError) -> [T]? {
    guard let v = value(key) else { return nil }
    guard case .array(let items) = v else { throw mismatch(key, "an array", v) }
    let p = path.appending(key)
    var out: [T] = []
    out.reserveCapacity(items.count)
    for k in items.indices {
      guard case .object(let o) = items[k] else {
        throw DecodeError(p.appending(k), "expected an object, found \(items[k].kindName)")
      }
      out.append(try read(ObjectReader(o, in: p, index: k)))
    }
    return out
  }

  public func strings(_ key: String) throws(DecodeError) -> [String]? {
    guard let items = try array(key) else { return nil }
    var out: [String] = []
    for (json, p) in items {
      guard case .string(let s) = json else { throw DecodeError(p, "expected a string, found \(json.kindName)") }
      out.append(s)
    }
    return out
  }
}

/// Writes known fields back into the object they were read from. Unknown keys keep their place
/// and value; a nil value removes the key. This is how SubDash never loses a field it does not
/// understand: every model type keeps its source object and overlays only what it owns.
public struct ObjectWriter {
  public var object: JSONObject
  public init(_ base: JSONObject = JSONObject()) { object = base }

  public mutating func set(_ key: String, _ v: String?) { object[key] = v.map(JSON.string) }
  public mutating func set(_ key: String, _ v: Bool?) { object[key] = v.map(JSON.bool) }
  public mutating func set(_ key: String, _ v: Int?) { set(key, v.map { Int64($0) }) }
  public mutating func set(_ key: String, _ v: Int64?) {
    setPreserving(key, v.map { JSON.int($0) }, same: { old in v.map { Self.literal(old, is: $0) } ?? false })
  }
  public mutating func set(_ key: String, _ v: Instant?) { setPreserving(key, v.map { JSON.double($0.ms) }, same: { Double($0) == v?.ms }) }
  public mutating func set(_ key: String, _ v: [String]?) { object[key] = v.map { .array($0.map(JSON.string)) } }
  public mutating func set(_ key: String, json v: JSON?) { object[key] = v }

  /// Whether a number literal spells exactly `v` (1, 1.0, 1e0 all spell 1).
  static func literal(_ text: String, is v: Int64) -> Bool {
    if let i = Int64(text) { return i == v }
    guard let d = Double(text), d == d.rounded(), abs(d) < 9.0e15 else { return false }
    return Int64(d) == v
  }

  /// Keeps the original literal when the value is numerically unchanged (1.0e12 stays 1.0e12).
  private mutating func setPreserving(_ key: String, _ v: JSON?, same: (String) -> Bool) {
    if case .number(let old)? = object[key], v != nil, same(old) { return }
    object[key] = v
  }

  public var json: JSON { .object(object) }
}
