import Testing
@testable import DashModel
@testable import CoreValues

/// A big document's long arrays are parsed in pieces on other threads (`ArrayPieces`). Whatever
/// the bytes, the outcome must be the one a single thread gets: the same value, or the same
/// error at the same line and column.
@Suite struct JSONParserPiecesTests {
  /// A pretty-printed document shaped like a state file: two long arrays of objects (one with
  /// nested arrays spread over lines), values around and after them.
  /// `nestedOnlyAt`: the transactions that have the nested `offers` (all when nil).
  static func document(transactions: Int = 400, notifications: Int = 200, nestedOnlyAt: Int? = nil) -> String {
    var s = "{\n  \"format\": \"subdash-state/1\",\n  \"subscriber\": {\n    \"transactions\": [\n"
    for k in 0..<transactions {
      s += "      {\n        \"transactionId\": \"20000000000\(k)\",\n        \"price\": \(k * 10),\n"
      if nestedOnlyAt == nil || nestedOnlyAt == k {
        s += "        \"offers\": [\n          {\n            \"id\": \"o\(k)\"\n          },\n          [\n            \(k),\n            null\n          ]\n        ],\n"
      }
      s += "        \"note\": \"a, \\\"quoted\\\" [value] {\(k)}\"\n      }" + (k + 1 < transactions ? ",\n" : "\n")
    }
    s += "    ],\n    \"notifications\": [\n"
    for k in 0..<notifications {
      s += "      {\"notificationType\": \"DID_RENEW\", \"signedDate\": \(1_700_000_000_000 + k)}" + (k + 1 < notifications ? ",\n" : "\n")
    }
    s += "    ]\n  },\n  \"catalogFile\": \"bench.storekit\"\n}\n"
    return s
  }

  /// The parse's value or error, and how many pieces it used (also JSONProjectionTests').
  static func outcome(_ bytes: [UInt8], projection: JSONProjection? = nil, pieces: Bool, cores: Int = 2,
                      maxDepth: Int = JSONParser.defaultMaxDepth) -> (Result<JSON, JSONSyntaxError>, Int) {
    bytes.withUnsafeBufferPointer { buffer in
      do throws(JSONSyntaxError) {
        let parsed = try JSONParser.parse(buffer, maxDepth: maxDepth, piecesFrom: pieces ? 0 : Int.max, cores: cores, projection: projection)
        return (.success(parsed.json), parsed.piecesTaken)
      } catch {
        return (.failure(error), 0)
      }
    }
  }

  @Test func aLongDocumentParsedInPiecesIsTheSameValue() throws {
    let bytes = Array(Self.document().utf8)
    let (alone, _) = Self.outcome(bytes, pieces: false)
    for cores in [2, 3, 8] {
      let (inPieces, taken) = Self.outcome(bytes, pieces: true, cores: cores)
      #expect(taken > 0, "the pieces were used, with \(cores) cores")
      #expect(try inPieces.get() == alone.get())
    }
  }

  @Test func theDefaultParseUsesPiecesOnlyForBigDocuments() throws {
    let bytes = Array(Self.document().utf8)
    #expect(bytes.count < ArrayPieces.parallelFrom)
    let taken = try bytes.withUnsafeBufferPointer { b in try JSONParser.parse(b, maxDepth: 256, piecesFrom: ArrayPieces.parallelFrom).piecesTaken }
    #expect(taken == 0)
  }

  @Test func aDocumentOnOneLineHasNoBoundaryAndIsParsedByOneThread() throws {
    let oneLine = Self.document().split(separator: "\n").map { $0.drop { $0 == " " } }.joined()
    let bytes = Array(oneLine.utf8)
    let (inPieces, taken) = Self.outcome(bytes, pieces: true)
    #expect(taken == 0)
    #expect(try inPieces.get() == Self.outcome(bytes, pieces: false).0.get())
  }

  /// Damage in every part of the document: the error is the single thread's, word for word.
  @Test(arguments: [
    ("a trailing comma in the first array's second half", "\"note\": \"a, \\\"quoted\\\" [value] {300}\"\n      }", "\"note\": \"a, \\\"quoted\\\" [value] {300}\"\n      },\n]"),
    ("a duplicate key late in the first array", "\"price\": 3500,", "\"price\": 3500, \"price\": 1,"),
    ("a line break inside a string in a piece", "\"id\": \"o250\"", "\"id\": \"o2\n50\""),
    ("a bad literal in the second array", "\"signedDate\": 1700000000150}", "\"signedDate\": nul}"),
    ("an object closed by ']' in a piece", "\"id\": \"o390\"\n          }", "\"id\": \"o390\"\n          ]"),
    ("the document cut short after the first array", "\"catalogFile\": \"bench.storekit\"\n}\n", "\"catalogFile\": \"bench"),
  ])
  func damageIsReportedAsByOneThread(_ damage: (String, String, String)) {
    let text = Self.document()
    #expect(text.contains(damage.1), "the test's damage applies (\(damage.0))")
    let bytes = Array(text.replacing(damage.1, with: damage.2).utf8)
    let (alone, _) = Self.outcome(bytes, pieces: false)
    let (inPieces, _) = Self.outcome(bytes, pieces: true)
    guard case .failure(let expected) = alone else {
      Issue.record("\(damage.0): one thread accepted the damaged document")
      return
    }
    #expect(inPieces == .failure(expected), "\(damage.0)")
  }

  /// A piece is only as deep as its own elements; the limit counts from the document's root.
  @Test func theDepthLimitCountsThePieceAsPartOfItsArray() {
    // Only transaction 390 (in the last piece) has offers: $.subscriber.transactions[390].offers[1]
    // is 6 levels deep, 3 of them inside the piece. A limit of 5 is exceeded only when the levels
    // above the piece's array are counted.
    let bytes = Array(Self.document(nestedOnlyAt: 390).utf8)
    let (alone, _) = Self.outcome(bytes, pieces: false, maxDepth: 5)
    let (inPieces, _) = Self.outcome(bytes, pieces: true, maxDepth: 5)
    guard case .failure(let expected) = alone else {
      Issue.record("one thread accepted nesting deeper than 5")
      return
    }
    #expect(expected.message.contains("deeper than 5"))
    #expect(inPieces == .failure(expected))
  }

  /// Random one-byte damage anywhere (a fixed seed, so a failure can be replayed): never a
  /// different outcome from the single thread's.
  @Test func randomDamageGivesTheSameOutcome() {
    for d in Self.damagedCopies(seed: 0x5EED_23) {
      let (alone, _) = Self.outcome(d.bytes, pieces: false)
      let (inPieces, _) = Self.outcome(d.bytes, pieces: true, cores: d.cores)
      #expect(inPieces == alone, "round \(d.round): byte \(d.at) replaced")
    }
  }

  /// The test document (120 transactions, 80 notifications) with one byte replaced by a JSON
  /// delimiter or a plain character, `rounds` times from a fixed seed (so a failure can be
  /// replayed), each with a number of cores (1 to 8) to parse it on.
  static func damagedCopies(seed: UInt64, rounds: Int = 300) -> [(round: Int, at: Int, bytes: [UInt8], cores: Int)] {
    let original = Array(document(transactions: 120, notifications: 80).utf8)
    var rng = SplitMix(seed: seed)
    let replacements: [UInt8] = Array(",[]{}\"\n :0a\\".utf8)
    return (0..<rounds).map { round in
      var bytes = original
      let at = Int(rng.next() % UInt64(bytes.count))
      bytes[at] = replacements[Int(rng.next() % UInt64(replacements.count))]
      return (round, at, bytes, 1 + Int(rng.next() % 8))
    }
  }
}

/// A small deterministic generator (SplitMix64), for damage a failure can replay.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
