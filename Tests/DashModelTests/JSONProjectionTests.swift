import Testing
@testable import DashModel
@testable import CoreValues

/// `show` parses a long history keeping only the fields its story reads (`JSONProjection`). What
/// it keeps must be exactly the full parse's values for those fields, everything outside the
/// projected array must be untouched, and a damaged file must fail exactly as it does without
/// the projection: the same message at the same line and column.
@Suite struct JSONProjectionTests {
  /// The pieces test's state-file-shaped document: transactions with `transactionId`, `price`,
  /// nested `offers` and an escaped `note`; notifications after them.
  static let keep = JSONProjection(arrayPath: ["subscriber", "transactions"], keep: ["transactionId", "price"],
                                   signature: ["transactionId", "price"])

  /// The full parse with the projected array's object elements cut down to the kept keys, but
  /// for an element with a key that was escaped in the text (this document's keys have no
  /// character that needs one) or is not ASCII: that element is kept whole.
  private func projected(_ full: JSON, _ p: JSONProjection) -> JSON {
    func down(_ v: JSON, _ path: ArraySlice<String>) -> JSON {
      guard case .object(var o) = v else { return v }
      guard let key = path.first, let inner = o[key] else { return v }
      if path.count > 1 {
        o[key] = down(inner, path.dropFirst())
      } else if case .array(let items) = inner {
        o[key] = .array(items.map { item in
          guard case .object(let e) = item,
                !e.keys.contains(where: { $0.utf8.contains { $0 < 0x20 || $0 >= 0x80 || $0 == 0x22 || $0 == 0x5C || $0 == 0x2F } }) else { return item }
          return .object(JSONObject(e.entries.filter { p.keep.contains($0.key) }.map { ($0.key, $0.value) }))
        })
      }
      return .object(o)
    }
    return down(full, p.arrayPath[...])
  }

  @Test func theHistoryKeepsOnlyTheKeptFieldsAndTheRestIsUntouched() throws {
    let bytes = Array(JSONParserPiecesTests.document().utf8)
    let full = try JSONParserPiecesTests.outcome(bytes, projection: nil, pieces: false).0.get()
    let expected = projected(full, Self.keep)
    #expect(expected != full, "the projection drops something")
    #expect(try JSONParserPiecesTests.outcome(bytes, projection: Self.keep, pieces: false).0.get() == expected)
    for cores in [2, 3, 8] {
      let (inPieces, taken) = JSONParserPiecesTests.outcome(bytes, projection: Self.keep, pieces: true, cores: cores)
      #expect(taken > 0, "the pieces were used, with \(cores) cores")
      #expect(try inPieces.get() == expected, "\(cores) cores")
    }
  }

  /// The same array one level further down is not the projected one, even where a piece parsed
  /// on another thread guessed it was (its elements have the signature keys).
  @Test func anArrayOfTheSameShapeElsewhereKeepsEverything() throws {
    let text = "{\"other\": " + JSONParserPiecesTests.document() + "}"
    let bytes = Array(text.utf8)
    let full = try JSONParserPiecesTests.outcome(bytes, projection: nil, pieces: false).0.get()
    #expect(try JSONParserPiecesTests.outcome(bytes, projection: Self.keep, pieces: false).0.get() == full)
    let (inPieces, _) = JSONParserPiecesTests.outcome(bytes, projection: Self.keep, pieces: true)
    #expect(try inPieces.get() == full)
  }

  /// An element whose key is escaped or not ASCII is kept whole: a key Swift would read as a
  /// kept one is never dropped.
  @Test func anElementWithAnEscapedOrNonASCIIKeyIsKeptWhole() throws {
    let text = JSONParserPiecesTests.document(transactions: 4, notifications: 1)
      .replacing("\"price\": 20,", with: "\"pr\\u0069ce\": 20,")
      .replacing("\"price\": 30,", with: "\"pr\u{131}ce\": 30,")
    let bytes = Array(text.utf8)
    let full = try JSONParserPiecesTests.outcome(bytes, projection: nil, pieces: false).0.get()
    let parsed = try JSONParserPiecesTests.outcome(bytes, projection: Self.keep, pieces: false).0.get()
    let items = parsed.objectValue?["subscriber"]?.objectValue?["transactions"]?.arrayValue ?? []
    let fullItems = full.objectValue?["subscriber"]?.objectValue?["transactions"]?.arrayValue ?? []
    #expect(items.count == 4)
    #expect(items[2] == fullItems[2] && items[3] == fullItems[3], "kept whole")
    #expect(items[1].objectValue?.keys == ["transactionId", "price"], "the others are cut down")
  }

  /// Damage inside dropped values and keys: the error of the parse without a projection.
  @Test(arguments: [
    ("a bad escape in a dropped string", "{300}\"", "{300}\\q\""),
    ("a control character in a dropped string", "[value] {12}", "[value]\t{12}"),
    ("invalid UTF-8 in a dropped string", "[value] {13}", "[value] \u{FFFF}{13}"),
    ("a leading zero in a dropped number", "\"id\": \"o14\"", "\"id\": 014"),
    ("a dropped key repeated", "\"price\": 150,", "\"price\": 150, \"note\": 1,"),
    ("a kept key repeated after a dropped one", "\"price\": 160,", "\"price\": 160, \"offers\": 1, \"price\": 2,"),
    ("no colon after a dropped key", "\"note\": \"a, \\\"quoted\\\" [value] {17}\"", "\"note\" \"a\""),
    ("a dropped literal misspelled", "            null\n", "            nul\n"),
    ("a trailing comma in an element", "[value] {18}\"\n      }", "[value] {18}\",\n      }"),
  ])
  func damageIsReportedAsWithoutTheProjection(_ damage: (String, String, String)) {
    let text = JSONParserPiecesTests.document()
    #expect(text.contains(damage.1), "the test's damage applies (\(damage.0))")
    var bytes = Array(text.replacing(damage.1, with: damage.2).utf8)
    if damage.0.hasPrefix("invalid UTF-8"), let at = bytes.firstIndex(of: 0xEF) { bytes[at] = 0xFF }
    let (expected, _) = JSONParserPiecesTests.outcome(bytes, projection: nil, pieces: false)
    guard case .failure = expected else {
      Issue.record("\(damage.0): the damaged document parsed")
      return
    }
    #expect(JSONParserPiecesTests.outcome(bytes, projection: Self.keep, pieces: false).0 == expected, "\(damage.0)")
    #expect(JSONParserPiecesTests.outcome(bytes, projection: Self.keep, pieces: true).0 == expected, "\(damage.0), in pieces")
  }

  @Test func nestingInADroppedValueCountsTowardTheLimit() {
    // $.subscriber.transactions[k].offers[1] is 6 levels deep; offers is dropped.
    let bytes = Array(JSONParserPiecesTests.document().utf8)
    let (expected, _) = JSONParserPiecesTests.outcome(bytes, projection: nil, pieces: false, maxDepth: 5)
    #expect((try? expected.get()) == nil)
    #expect(JSONParserPiecesTests.outcome(bytes, projection: Self.keep, pieces: false, maxDepth: 5).0 == expected)
    #expect(JSONParserPiecesTests.outcome(bytes, projection: Self.keep, pieces: true, maxDepth: 5).0 == expected)
  }

  /// Random one-byte damage (a fixed seed): the same error, or the same value cut down.
  @Test func randomDamageGivesTheSameOutcome() {
    for d in JSONParserPiecesTests.damagedCopies(seed: 0x5EED_24) {
      let expected = JSONParserPiecesTests.outcome(d.bytes, projection: nil, pieces: false).0.map { projected($0, Self.keep) }
      #expect(JSONParserPiecesTests.outcome(d.bytes, projection: Self.keep, pieces: false).0 == expected, "round \(d.round): byte \(d.at) replaced")
      #expect(JSONParserPiecesTests.outcome(d.bytes, projection: Self.keep, pieces: true, cores: d.cores).0 == expected, "round \(d.round): byte \(d.at) replaced, \(d.cores) cores")
    }
  }

  /// The kept-key lookup the parser makes for every key: exact bytes only, whatever the length.
  @Test func aKeyIsKeptOnlyWhenItsBytesAreAKeptKeys() {
    func kept(_ keys: [String], _ key: String) -> Bool {
      let p = JSONProjection(arrayPath: ["a"], keep: keys, signature: [])
      return Array(key.utf8).withUnsafeBufferPointer { b in p.keptKeys.contains(b, hash: StringInterner.hash(b)) }
    }
    let keys = ["price", "transactionId", "", "a-key-longer-than-sixty-four-bytes-whose-hash-reads-only-its-ends-xyz"]
    for key in keys { #expect(kept(keys, key), "\(key)") }
    for key in ["pric", "prices", "Price", "transactionID", "a-key-longer-than-sixty-four-bytes-whose-hash-reads-only-its-ends-xyZ",
                "a-key-longer-than-sixty-four-bytes-whose-hash-reads-only-its-end-xyz",
                // The same length and ends, so the same hash: only the bytes tell them apart.
                "a-key-longer-than-sixty-four-bytes-WHOSE-hash-reads-only-its-ends-xyz"] {
      #expect(!kept(keys, key), "\(key)")
    }
    #expect(!kept([], "price"))
    #expect(!kept([], ""))
  }
}
