import Testing
@testable import DashModel
@testable import CoreValues

/// A projection with a reader hands the projected array's elements to it instead of keeping them
/// in the document (`ProjectedElementReader`): every element exactly once, in order, as the
/// projection without a reader would have kept it, whichever thread parsed it; the rest of the
/// document untouched; and a damaged file fails exactly as it does without the reader.
@Suite struct ProjectedElementReaderTests {
  /// Keeps what it is given, so a test can compare it with the elements the document would hold.
  struct Collecting: ProjectedElementReader {
    func makeRun() -> any ProjectedRun { Run() }
    final class Run: ProjectedRun {
      var items: [JSON] = []
      func add(_ element: JSON) { items.append(element) }
    }
  }

  /// Records the room the parser reserves.
  struct Reserving: ProjectedElementReader {
    func makeRun() -> any ProjectedRun { Run() }
    final class Run: ProjectedRun {
      var count = 0
      var reserved: [Int] = []
      func add(_ element: JSON) { count += 1 }
      func reserveCapacity(_ elements: Int) { reserved.append(elements) }
    }
  }

  static let keep = JSONProjection(arrayPath: ["subscriber", "transactions"], keep: ["transactionId", "price"],
                                   signature: ["transactionId", "price"])
  static let reading = JSONProjection(arrayPath: ["subscriber", "transactions"], keep: ["transactionId", "price"],
                                      signature: ["transactionId", "price"], reader: Collecting())

  /// The parse with the reader, put back together: its runs' elements in the array's place.
  static func reassembled(_ bytes: [UInt8], pieces: Bool, cores: Int = 2) -> (Result<JSON, JSONSyntaxError>, runs: Int) {
    bytes.withUnsafeBufferPointer { buffer in
      do throws(JSONSyntaxError) {
        let parsed = try JSONParser.parse(buffer, maxDepth: JSONParser.defaultMaxDepth, piecesFrom: pieces ? 0 : Int.max, cores: cores, projection: reading)
        guard case .object(var root) = parsed.json, case .object(var subscriber)? = root["subscriber"],
              subscriber["transactions"] == .array([]) else { return (.success(parsed.json), parsed.projectedRuns.count) }
        subscriber["transactions"] = .array(parsed.projectedRuns.flatMap { ($0 as? Collecting.Run)?.items ?? [.string("a run of another reader")] })
        root["subscriber"] = .object(subscriber)
        return (.success(.object(root)), parsed.projectedRuns.count)
      } catch {
        return (.failure(error), 0)
      }
    }
  }

  @Test func everyElementReachesTheReaderOnceInOrderOnOneThreadOrMany() throws {
    // Nested arrays in every element (a piece may start inside one), and in the first only.
    for nested in [nil, 0] {
      let bytes = Array(JSONParserPiecesTests.document(transactions: 400, notifications: 200, nestedOnlyAt: nested).utf8)
      let expected = try JSONParserPiecesTests.outcome(bytes, projection: Self.keep, pieces: false).0.get()
      let single = Self.reassembled(bytes, pieces: false)
      #expect(try single.0.get() == expected)
      #expect(single.runs == 1)
      for cores in [2, 3, 8] {
        let (json, runs) = Self.reassembled(bytes, pieces: true, cores: cores)
        #expect(try json.get() == expected, "\(cores) cores")
        if nested == 0 { #expect(runs > 1, "pieces were read on other threads (\(cores) cores)") }
      }
    }
  }

  /// Room for a run is reserved once, after its first elements, for at least as many as a run of
  /// such elements holds, and never for more than one element per 64 bytes of the document.
  @Test func roomIsReservedOnceForAtLeastTheElementsThatCome() throws {
    let bytes = Array(JSONParserPiecesTests.document(transactions: 400, notifications: 200, nestedOnlyAt: 0).utf8)
    let reserving = JSONProjection(arrayPath: ["subscriber", "transactions"], keep: ["price"], signature: ["transactionId", "price"], reader: Reserving())
    for (piecesFrom, cores) in [(Int.max, 1), (0, 2)] {
      let parsed = try bytes.withUnsafeBufferPointer { b in
        try JSONParser.parse(b, maxDepth: JSONParser.defaultMaxDepth, piecesFrom: piecesFrom, cores: cores, projection: reserving)
      }
      let runs = parsed.projectedRuns.compactMap { $0 as? Reserving.Run }
      #expect(runs.reduce(0) { $0 + $1.count } == 400)
      for run in runs where run.count >= 32 {
        #expect(run.reserved.count == 1, "\(cores) cores")
        #expect((run.reserved.first ?? 0) >= run.count, "\(cores) cores: \(run.reserved) for \(run.count)")
        #expect((run.reserved.first ?? 0) <= 32 + bytes.count / 64)
      }
      for run in runs where run.count < 32 { #expect(run.reserved.isEmpty) }
    }
    // A sample of tiny elements before big ones: one element per 64 bytes at most.
    #expect(projectedRunEstimate(consumed: 32 * 3, remaining: 64_000) == 32 + 1_000)
    #expect(projectedRunEstimate(consumed: 32 * 500, remaining: 50_000) == 32 + 100)
    // A 256 MB document on one line (no pieces): room for 262,144 at most.
    #expect(projectedRunEstimate(consumed: 32 * 64, remaining: 256 << 20) == 1 << 18)
  }

  @Test func theDocumentHoldsAnEmptyArrayWhereTheElementsWere() throws {
    let bytes = Array(JSONParserPiecesTests.document(transactions: 3, notifications: 2).utf8)
    let parsed = try bytes.withUnsafeBufferPointer { b in
      try JSONParser.parse(b, maxDepth: JSONParser.defaultMaxDepth, piecesFrom: Int.max, projection: Self.reading)
    }
    let subscriber = try #require(parsed.json.objectValue?["subscriber"]?.objectValue)
    #expect(subscriber["transactions"] == .array([]))
    #expect(subscriber["notifications"]?.arrayValue?.count == 2)
    #expect((parsed.projectedRuns.first as? Collecting.Run)?.items.count == 3)
  }

  /// Random one-byte damage (a fixed seed): the same error, or the same value, with or without
  /// the reader, on one thread or several.
  @Test func randomDamageGivesTheSameOutcome() {
    for d in JSONParserPiecesTests.damagedCopies(seed: 0x5EED_25) {
      let expected = JSONParserPiecesTests.outcome(d.bytes, projection: Self.keep, pieces: false).0
      #expect(Self.reassembled(d.bytes, pieces: false).0 == expected, "round \(d.round): byte \(d.at) replaced")
      #expect(Self.reassembled(d.bytes, pieces: true, cores: d.cores).0 == expected, "round \(d.round): byte \(d.at) replaced, \(d.cores) cores")
    }
  }
}
