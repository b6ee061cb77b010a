/// A syntax error with its position. Lines and columns are 1-based; columns count bytes.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  public var message: String
  public var offset: Int
  public var line: Int
  public var column: Int
  public var description: String { "line \(line), column \(column): \(message)" }
}

/// A strict, fast RFC 8259 parser over bytes.
///
/// Strictness is deliberate: a support tool must not guess what a damaged file meant. It rejects
/// duplicate keys (which JSONSerialization silently resolves), invalid UTF-8, control characters in
/// strings, leading zeros, trailing commas and nesting deeper than `maxDepth`. A leading UTF-8 BOM
/// is skipped: editors on other systems add one, and it carries no meaning.
///
/// Speed (a 100,000-transaction history is ~100 MB; see docs/benchmarks.md): the parser reads
/// through an `UnsafeBufferPointer`, because every `Array` subscript or slice of `[UInt8]` in a
/// mutating method costs a retain/release pair, which dominated profiles. Strings of 16–64 bytes
/// (too long for Swift's allocation-free small strings) go through `StringInterner`, so the keys
/// and repeated values of 100,000 similar objects share one allocation each.
public struct JSONParser {
  public static let defaultMaxDepth = 256
  /// Objects up to this many keys check duplicates pairwise (by hash); bigger ones use a Set.
  static let linearKeyCheckLimit = 32

  /// Parses a whole document.
  public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSON {
    let result: Result<JSON, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
      do throws(JSONSyntaxError) { return .success(try parse(buffer, maxDepth: maxDepth)) } catch { return .failure(error) }
    }
    return try result.get()
  }

  /// Parses a whole document held by the caller (a mapped file, say) for the duration of the call.
  /// With a `projection`, the elements of that one array keep only its kept keys' values.
  public static func parse(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth, projection: JSONProjection? = nil) throws(JSONSyntaxError) -> JSON {
    try parse(buffer, maxDepth: maxDepth, piecesFrom: ArrayPieces.parallelFrom, projection: projection).json
  }

  /// A parsed document, with what a projection's reader made of its array.
  package struct Parsed {
    package var json: JSON
    /// How many pieces parsed on other threads were used (tests check it).
    var piecesTaken: Int
    /// The projected array's elements as the projection's reader read them, in runs in document
    /// order (the document holds an empty array there); empty without a reader.
    package var projectedRuns: [any ProjectedRun]
  }

  /// The document, and what the pieces and the projection's reader did.
  package static func parse(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int, piecesFrom: Int, cores: Int = OrderedParallelMap.cores,
                    projection: JSONProjection? = nil) throws(JSONSyntaxError) -> Parsed {
    // A document of many megabytes: its long arrays are parsed in pieces on the other cores
    // while this thread reads up to them (JSONParser+Pieces.swift); every piece has ended
    // before the buffer is let go.
    let pieces = ArrayPieces.start(buffer, maxDepth: maxDepth, from: piecesFrom, cores: cores, projection: projection)
    defer { pieces?.waitForAll() }
    var p = JSONParser(bytes: buffer, maxDepth: maxDepth)
    p.pieces = pieces
    if let projection {
      p.projection = projection
      p.projectionDepth = projection.arrayPath.count
      p.pathKeys = [String?](repeating: nil, count: projection.arrayPath.count)
    }
    p.nextPieceStart = pieces?.nextStart ?? Int.max
    let json = try p.parseDocument()
    return Parsed(json: json, piecesTaken: pieces?.taken ?? 0, projectedRuns: p.projectedRuns)
  }

  /// Finds the byte offset of the value at `path`, for pointing a type error at a line and column.
  public static func offset(of path: JSONPath, in bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBufferPointer { offset(of: path, in: $0) }
  }

  package static func offset(of path: JSONPath, in buffer: UnsafeBufferPointer<UInt8>) -> Int? {
    var p = JSONParser(bytes: buffer, maxDepth: defaultMaxDepth)
    p.target = path.components
    _ = try? p.parseDocument()
    return p.found
  }

  /// Converts a byte offset into a 1-based line and column.
  public static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
    bytes.withUnsafeBufferPointer { lineAndColumn(of: offset, in: $0) }
  }

  package static func lineAndColumn(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
    var line = 1
    var lineStart = 0
    for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A {
      line += 1
      lineStart = i + 1
    }
    return (line, offset - lineStart + 1)
  }

  // Valid only during `parse`/`offset`, which own the array the pointer comes from.
  let bytes: UnsafeBufferPointer<UInt8>
  let maxDepth: Int
  var i = 0
  var depth = 0
  /// The deepest nesting met so far (a piece's depth is added to its array's when it is taken).
  var deepest = 0
  /// Pieces of long arrays parsed on other threads, and where the next one starts.
  var pieces: ArrayPieces? = nil
  var nextPieceStart = Int.max
  private var interner: StringInterner
  /// Key count of the last object closed at each depth: the objects of an array usually have the
  /// same keys, so the next one reserves that much and never regrows.
  private var keyCountHint: [Int]
  /// Hashes of the keys of the objects being parsed (a stack), so the duplicate-key check compares
  /// integers and only compares strings when two hashes agree.
  private var keyHashes: [UInt64] = []
  // Locating mode: the path still to match, and the offset once found.
  private var target: [JSONPath.Component]? = nil
  private var current: [JSONPath.Component] = []
  private var found: Int? = nil
  // Projecting (see `JSONProjection`): the key each object on the current path is reading, down
  // to the projected array's parent (nil where an array is), and the byte ranges of a projected
  // element's keys (beside their hashes in `keyHashes`), which are never made strings.
  /// Also set on a piece's parser, which reads its elements projected once it finds it is inside
  /// the projected array (`parseElement(projected:)`), with its kept keys (see `KeptKeyTable`).
  var projection: JSONProjection? = nil {
    didSet { keptKeys = projection?.keptKeys }
  }
  private var keptKeys: KeptKeys? = nil
  private var projectionDepth = 0
  private var pathKeys: [String?] = []
  private var keyRanges: [Range<Int>] = []
  /// What the projection's reader made of its array, in document order (see `Parsed`).
  private var projectedRuns: [any ProjectedRun] = []

  init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
    // Sized to the input: the journal is parsed a line at a time, and a table sized for a
    // hundred-megabyte document would cost more to set up than such a line costs to parse.
    interner = StringInterner(inputBytes: bytes.count)
    keyCountHint = [Int](repeating: 0, count: 16)
  }

  private mutating func parseDocument() throws(JSONSyntaxError) -> JSON {
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
    if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
      throw error("the file is UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8")
    }
    skipSpace()
    if i >= bytes.count { throw error("the file is empty (expected a JSON value)") }
    let v = try parseValue()
    skipSpace()
    if i < bytes.count { throw error("unexpected \(describe(bytes[i])) after the end of the JSON value") }
    return v
  }

  func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
    let o = offset ?? i
    let (l, c) = JSONParser.lineAndColumn(of: o, in: bytes)
    return JSONSyntaxError(message: message, offset: o, line: l, column: c)
  }

  private func describe(_ b: UInt8) -> String {
    if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
    let h = String(b, radix: 16, uppercase: true)
    return "byte 0x" + (h.count == 1 ? "0" + h : h)
  }

  mutating func skipSpace() {
    // A pretty-printed file is a quarter indentation: whole words of eight spaces are skipped at
    // once, after each line break too (a member is a line break and then its indentation).
    while i < bytes.count {
      if i + 8 <= bytes.count, load8(i) == 0x2020_2020_2020_2020 { i += 8; continue }
      let b = bytes[i]
      if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 } else { return }
    }
  }

  mutating func parseValue() throws(JSONSyntaxError) -> JSON {
    if let t = target, found == nil, t == current { found = i }
    guard i < bytes.count else { throw error("unexpected end of file (the JSON is truncated)") }
    switch bytes[i] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString().value)
    case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
    case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
    case UInt8(ascii: "n"): try expectWord("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default: throw error("unexpected \(describe(bytes[i])) (expected a JSON value)")
    }
  }

  private mutating func expectWord(_ word: StaticString) throws(JSONSyntaxError) {
    let n = word.utf8CodeUnitCount
    let start = i
    guard i + n <= bytes.count else { throw error("unexpected end of file (the JSON is truncated)") }
    let p = word.utf8Start
    for k in 0..<n where bytes[i + k] != p[k] { throw error("invalid literal (expected \(word))", at: start) }
    i += n
  }

  private mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    if depth > deepest { deepest = depth }
    if depth > maxDepth { throw error("nesting deeper than \(maxDepth) levels") }
  }

  private mutating func parseObject() throws(JSONSyntaxError) -> JSON {
    guard let hintSlot = try openObject() else { return .object(JSONObject()) }
    var entries: [(key: String, value: JSON)] = []
    entries.reserveCapacity(keyCountHint[hintSlot])
    let hashBase = keyHashes.count
    var hasNonASCIIKey = false
    var largeObjectKeys: Set<String>? = nil
    // A 128-bit filter of the key hashes seen in this object: a key whose bit is not set cannot
    // be a duplicate, so the pairwise check below runs only for the few keys that might be.
    var seenLow: UInt64 = 0, seenHigh: UInt64 = 0
    defer { keyHashes.removeSubrange(hashBase...) }
    while true {
      try moveToKey()
      let keyStart = i
      let (key, hash, ascii) = try parseString()
      // Swift compares strings by canonical equivalence ("\u{212A}" == "K"), and so do lookups: once
      // a non-ASCII key is involved, every key is compared as a string, not by its bytes' hash.
      if !ascii { hasNonASCIIKey = true }
      if entries.count < Self.linearKeyCheckLimit {
        let bit: UInt64 = 1 << (hash & 63)
        let high = hash & 64 != 0
        if hasNonASCIIKey || (high ? seenHigh : seenLow) & bit != 0 {
          for k in hashBase..<keyHashes.count where (hasNonASCIIKey || keyHashes[k] == hash) && entries[k - hashBase].key == key {
            throw duplicate(key, earlier: entries[k - hashBase].key, at: keyStart)
          }
        }
        if high { seenHigh |= bit } else { seenLow |= bit }
      } else {
        // A hostile object with 100,000 keys would make the pairwise check quadratic (seconds);
        // a Set hashes strings by canonical equivalence too.
        if largeObjectKeys == nil { largeObjectKeys = Set(entries.map(\.key)) }
        let (inserted, earlier) = largeObjectKeys!.insert(key)
        if !inserted { throw duplicate(key, earlier: earlier, at: keyStart) }
      }
      keyHashes.append(hash)
      skipSpace()
      guard i < bytes.count else { throw error("unexpected end of file after a key (the JSON is truncated)") }
      guard bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\", found \(describe(bytes[i]))") }
      i += 1
      skipSpace()
      if target != nil { current.append(.key(key)) }
      if depth <= projectionDepth { pathKeys[depth - 1] = key }
      let value = try parseValue()
      if target != nil { current.removeLast() }
      entries.append((key: key, value: value))
      if try anotherMember() { continue }
      keyCountHint[hintSlot] = entries.count
      return .object(JSONObject(entries: entries))
    }
  }

  /// Past an object's `{`: nil when a `}` closes it at once, else the slot of the key-count hint
  /// (its depth), by which the members' storage is reserved.
  @inline(__always)
  private mutating func openObject() throws(JSONSyntaxError) -> Int? {
    try enter()
    i += 1
    skipSpace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; depth -= 1; return nil }
    if depth >= keyCountHint.count { keyCountHint.append(contentsOf: repeatElement(0, count: depth + 1 - keyCountHint.count)) }
    return depth
  }

  /// Moves to the next key's opening quote (an object's members are parsed in two ways, in full
  /// and projected, with the same errors).
  @inline(__always)
  private mutating func moveToKey() throws(JSONSyntaxError) {
    skipSpace()
    guard i < bytes.count else { throw error("unexpected end of file inside an object (the JSON is truncated)") }
    guard bytes[i] == UInt8(ascii: "\"") else {
      if bytes[i] == UInt8(ascii: "}") { throw error("trailing comma before '}'") }
      throw error("expected a quoted key, found \(describe(bytes[i]))")
    }
  }

  /// After a member's value: true past a `,` (another member follows), false past the object's `}`.
  @inline(__always)
  private mutating func anotherMember() throws(JSONSyntaxError) -> Bool {
    skipSpace()
    guard i < bytes.count else { throw error("unexpected end of file inside an object (the JSON is truncated)") }
    if bytes[i] == UInt8(ascii: ",") { i += 1; return true }
    if bytes[i] == UInt8(ascii: "}") { i += 1; depth -= 1; return false }
    throw error("expected ',' or '}' in an object, found \(describe(bytes[i]))")
  }

  /// Keys that are equal as Swift strings but spelled with different code points ("K" and the
  /// Kelvin sign) would read as one key, so they are duplicates too; the message says why.
  private func duplicate(_ key: String, earlier: String, at offset: Int) -> JSONSyntaxError {
    if Array(key.utf8) != Array(earlier.utf8) {
      let spelled = key.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined()
      return error("duplicate key \"\(spelled)\" (the same text as the earlier key \"\(earlier)\" once Unicode-normalized)", at: offset)
    }
    return error("duplicate key \"\(key)\"", at: offset)
  }

  private mutating func parseArray() throws(JSONSyntaxError) -> JSON {
    try enter()
    i += 1
    var items: [JSON] = []
    if depth <= projectionDepth { pathKeys[depth - 1] = nil }
    // The projected array: inside objects with the projection's keys, from the root down.
    let projected = depth == projectionDepth + 1 && projectionDepth > 0 && pathKeys.elementsEqual(projection?.arrayPath ?? []) { $0 == $1 }
    // With a reader, the projected array's elements go to it, in runs (`ProjectedElementReader`).
    let reader = projected ? projection?.reader : nil
    var run = reader?.makeRun()
    // Where the current run began and how many elements it has (see `ProjectedRun.reserveCapacity`).
    var runStart = i, runCount = 0
    skipSpace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; depth -= 1; return .array(items) }
    while true {
      skipSpace()
      if i < bytes.count, bytes[i] == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
      if i >= nextPieceStart, let piece = takePiece(projected: projected) {
        // The elements from here were parsed on another thread, exactly as this loop would have
        // (and read there, when the piece found it was in the projected array).
        if let reader, let before = run, let pieceRun = piece.run {
          projectedRuns.append(before)
          projectedRuns.append(pieceRun)
          run = reader.makeRun()
          runStart = piece.end
          runCount = 0
        } else if let run {
          for item in piece.items { run.add(item) }
        } else {
          items.append(contentsOf: piece.items)
        }
        i = piece.end
        if piece.closesArray { depth -= 1; return close(items, run) }
        continue
      }
      if target != nil { current.append(.index(items.count)) }
      let element = try parseElement(projected: projected)
      if let run {
        run.add(element)
        runCount += 1
        run.added(count: runCount, consumed: i - runStart, remaining: min(nextPieceStart, bytes.count) - i)
      } else {
        items.append(element)
      }
      if target != nil { current.removeLast() }
      skipSpace()
      guard i < bytes.count else { throw error("unexpected end of file inside an array (the JSON is truncated)") }
      if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
      if bytes[i] == UInt8(ascii: "]") { i += 1; depth -= 1; return close(items, run) }
      throw error("expected ',' or ']' in an array, found \(describe(bytes[i]))")
    }
  }

  /// An array's value once its `]` is read: its elements, or an empty array when a reader's run
  /// took them (the run is kept for `Parsed`).
  private mutating func close(_ items: [JSON], _ run: (any ProjectedRun)?) -> JSON {
    if let run { projectedRuns.append(run) }
    return .array(items)
  }

  /// An array's element: `projected` (the parser has a projection), an object keeps only the
  /// kept keys' values.
  mutating func parseElement(projected: Bool) throws(JSONSyntaxError) -> JSON {
    if projected, let kept = keptKeys, i < bytes.count, bytes[i] == UInt8(ascii: "{") { return try parseProjectedObject(kept) }
    return try parseValue()
  }

  /// An element of the projected array: every member is checked as `parseObject` checks it (the
  /// same errors at the same places), and only the kept members are built. Keys stay byte ranges:
  /// they are compared by hash and bytes. An object with a key that is escaped or not ASCII, or
  /// with more keys than the pairwise duplicate check takes, is parsed again from its `{` by
  /// `parseObject`, which keeps every member: rare, and keeping too much is only slower.
  private mutating func parseProjectedObject(_ kept: KeptKeys) throws(JSONSyntaxError) -> JSON {
    let start = i, depthBefore = depth, deepestBefore = deepest
    func again(_ p: inout JSONParser) throws(JSONSyntaxError) -> JSON {
      p.i = start
      p.depth = depthBefore
      p.deepest = deepestBefore
      return try p.parseObject()
    }
    guard let hintSlot = try openObject() else { return .object(JSONObject()) }
    var entries: [(key: String, value: JSON)] = []
    entries.reserveCapacity(keyCountHint[hintSlot])
    let hashBase = keyHashes.count, rangeBase = keyRanges.count
    var seenLow: UInt64 = 0, seenHigh: UInt64 = 0
    defer {
      keyHashes.removeSubrange(hashBase...)
      keyRanges.removeSubrange(rangeBase...)
    }
    while true {
      try moveToKey()
      let keyStart = i
      if try scanString() != (false, false) || keyHashes.count - hashBase >= Self.linearKeyCheckLimit { return try again(&self) }
      let keyBytes = UnsafeBufferPointer(rebasing: bytes[(keyStart + 1)..<i])
      i += 1
      let hash = StringInterner.hash(keyBytes)
      let bit: UInt64 = 1 << (hash & 63)
      let high = hash & 64 != 0
      if (high ? seenHigh : seenLow) & bit != 0 {
        for k in hashBase..<keyHashes.count where keyHashes[k] == hash
          && keyBytes.elementsEqual(UnsafeBufferPointer(rebasing: bytes[keyRanges[rangeBase + k - hashBase]])) {
          let key = String(decoding: keyBytes, as: UTF8.self)
          throw duplicate(key, earlier: key, at: keyStart)
        }
      }
      if high { seenHigh |= bit } else { seenLow |= bit }
      keyHashes.append(hash)
      keyRanges.append((keyStart + 1)..<(i - 1))
      skipSpace()
      guard i < bytes.count else { throw error("unexpected end of file after a key (the JSON is truncated)") }
      guard bytes[i] == UInt8(ascii: ":") else {
        throw error("expected ':' after key \"\(String(decoding: keyBytes, as: UTF8.self))\", found \(describe(bytes[i]))")
      }
      i += 1
      skipSpace()
      if kept.contains(keyBytes, hash: hash) {
        let key = interner.string(keyBytes, hash: hash)
        entries.append((key: key, value: try parseValue()))
      } else {
        try skipValue()
      }
      if try anotherMember() { continue }
      keyCountHint[hintSlot] = entries.count
      return .object(JSONObject(entries: entries))
    }
  }

  /// Checks the value here exactly as `parseValue` would and keeps nothing of it: a projected
  /// element's dropped members. Plain strings and numbers are only scanned (no allocation);
  /// anything else is parsed and let go.
  private mutating func skipValue() throws(JSONSyntaxError) {
    guard i < bytes.count else { throw error("unexpected end of file (the JSON is truncated)") }
    switch bytes[i] {
    case UInt8(ascii: "\""):
      let open = i
      if try scanString() == (false, false) { i += 1; return }
      i = open
      _ = try parseString()
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try scanNumber()
    default: _ = try parseValue()
    }
  }

  private mutating func parseNumber() throws(JSONSyntaxError) -> String {
    let start = try scanNumber()
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
  }

  /// Moves past a number, checking its grammar; returns where it started.
  private mutating func scanNumber() throws(JSONSyntaxError) -> Int {
    let start = i
    func digit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    if bytes[i] == UInt8(ascii: "-") { i += 1 }
    guard i < bytes.count, digit(bytes[i]) else { throw error("invalid number", at: start) }
    if bytes[i] == UInt8(ascii: "0") {
      i += 1
      if i < bytes.count, digit(bytes[i]) { throw error("invalid number (leading zero)", at: start) }
    } else {
      while i < bytes.count, digit(bytes[i]) { i += 1 }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      i += 1
      guard i < bytes.count, digit(bytes[i]) else { throw error("invalid number (no digits after '.')", at: start) }
      while i < bytes.count, digit(bytes[i]) { i += 1 }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      guard i < bytes.count, digit(bytes[i]) else { throw error("invalid number (bad exponent)", at: start) }
      while i < bytes.count, digit(bytes[i]) { i += 1 }
    }
    if i - start > 64 { throw error("number literal longer than 64 characters", at: start) }
    return start
  }

  /// From the opening quote, moves to the closing quote or the first backslash, checking for
  /// control characters and an unterminated string; says which of the two it stopped at and
  /// whether it passed a byte that is not ASCII.
  private mutating func scanString() throws(JSONSyntaxError) -> (hasEscape: Bool, nonASCII: Bool) {
    let open = i
    i += 1
    var hasEscape = false
    var nonASCII = false
    // Eight bytes at a time while none of them is a quote, a backslash, a control character or
    // non-ASCII; the loop below looks at the word that has one byte by byte, as before.
    while i + 8 <= bytes.count {
      let w = load8(i)
      let quote = w ^ 0x2222_2222_2222_2222, backslash = w ^ 0x5C5C_5C5C_5C5C_5C5C
      let found = ((quote &- Self.ones) & ~quote) | ((backslash &- Self.ones) & ~backslash) | ((w &- 0x2020_2020_2020_2020) & ~w) | w
      if found & 0x8080_8080_8080_8080 != 0 { break }
      i += 8
    }
    while i < bytes.count {
      let b = bytes[i]
      if b == UInt8(ascii: "\"") { break }
      if b == UInt8(ascii: "\\") { hasEscape = true; break }
      if b < 0x20 { throw error("control character (byte 0x\(String(b, radix: 16))) inside a string; it must be escaped") }
      if b >= 0x80 { nonASCII = true }
      i += 1
    }
    guard i < bytes.count else { throw error("unterminated string (the JSON is truncated)", at: open) }
    return (hasEscape, nonASCII)
  }

  /// A string, a hash of its UTF-8 bytes and whether they are all ASCII (for the duplicate-key check).
  private mutating func parseString() throws(JSONSyntaxError) -> (value: String, hash: UInt64, ascii: Bool) {
    let open = i
    let start = i + 1
    // Fast path: no escapes, pure ASCII or valid UTF-8 to the closing quote.
    let (hasEscape, nonASCII) = try scanString()
    if !hasEscape {
      let slice = UnsafeBufferPointer(rebasing: bytes[start..<i])
      i += 1
      let hash = StringInterner.hash(slice)
      if !nonASCII { return (interner.string(slice, hash: hash), hash, true) }
      guard let s = String(validating: slice, as: UTF8.self) else { throw error("invalid UTF-8 inside a string", at: open) }
      return (s, hash, false)
    }
    // Slow path with escapes.
    var out: [UInt8] = Array(bytes[start..<i])
    while i < bytes.count {
      let b = bytes[i]
      if b == UInt8(ascii: "\"") {
        i += 1
        guard let s = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8 inside a string", at: open) }
        return (s, out.withUnsafeBufferPointer(StringInterner.hash), s.utf8.allSatisfy { $0 < 0x80 })
      }
      if b < 0x20 { throw error("control character (byte 0x\(String(b, radix: 16))) inside a string; it must be escaped") }
      if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
      i += 1
      guard i < bytes.count else { break }
      let e = bytes[i]
      i += 1
      switch e {
      case UInt8(ascii: "\""): out.append(0x22)
      case UInt8(ascii: "\\"): out.append(0x5C)
      case UInt8(ascii: "/"): out.append(0x2F)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = try hex4()
        if (0xD800...0xDBFF).contains(scalar) {
          guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
            throw error("unpaired UTF-16 surrogate in \\u escape")
          }
          i += 2
          let low = try hex4()
          guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired UTF-16 surrogate in \\u escape") }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
          throw error("unpaired UTF-16 surrogate in \\u escape")
        }
        out.append(contentsOf: Array(String(Unicode.Scalar(scalar)!).utf8))
      default:
        throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))' in a string", at: i - 2)
      }
    }
    throw error("unterminated string (the JSON is truncated)", at: open)
  }

  private static let ones: UInt64 = 0x0101_0101_0101_0101

  /// Eight bytes from `at` (the caller has checked that `at + 8` is inside the input), as one
  /// word; an input with no storage is empty and never gets here (0 would stop both loops).
  @inline(__always)
  private func load8(_ at: Int) -> UInt64 {
    UnsafeRawPointer(bytes.baseAddress)?.loadUnaligned(fromByteOffset: at, as: UInt64.self) ?? 0
  }

  private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
    guard i + 4 <= bytes.count else { throw error("truncated \\u escape") }
    var v: UInt32 = 0
    for _ in 0..<4 {
      let b = bytes[i]
      let d: UInt32
      switch b {
      case 0x30...0x39: d = UInt32(b - 0x30)
      case 0x41...0x46: d = UInt32(b - 0x41 + 10)
      case 0x61...0x66: d = UInt32(b - 0x61 + 10)
      default: throw error("invalid hex digit in \\u escape")
      }
      v = v * 16 + d
      i += 1
    }
    return v
  }
}
