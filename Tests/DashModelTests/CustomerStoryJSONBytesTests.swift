import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// `show --json` writes the timeline straight into bytes (`writeTimelineJSON`) instead of
/// building `timelineJSON` and writing that: the bytes must be the very ones `JSONWriter` writes
/// for `timelineJSON`, for every shipped example and for a long generated history with every
/// kind of period, extensions, refunds, gaps, a fractional millisecond and a price change.
@Suite struct CustomerStoryJSONBytesTests {
  /// The document the old way (values, then `JSONWriter`) and the new way (spliced bytes), with
  /// keys around the timeline so its indentation and commas are checked in place.
  static func bothWays(_ story: CustomerStory) -> (values: [UInt8], bytes: [UInt8]) {
    let before: (String, JSON) = ("summary", story.summaryJSON)
    let after: (String, JSON) = ("timelineMarks", story.timelineMarksJSON)
    let values = JSONWriter.write(.object(JSONObject([before, ("timeline", story.timelineJSON), after])))
    let bytes = JSONWriter.write(JSONObject([before, ("timeline", .array([])), after]),
                                 splicing: ["timeline": { out, indent in story.writeTimelineJSON(into: &out, indent: indent) }])
    return (values, bytes)
  }

  static func expectSame(_ story: CustomerStory, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let (values, bytes) = bothWays(story)
    guard values != bytes else { return }
    let i = zip(values, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(values.count, bytes.count)
    let context = { (b: [UInt8]) in String(decoding: b[max(0, i - 80)..<min(b.count, i + 80)], as: UTF8.self) }
    Issue.record("\(what): bytes differ at \(i):\n--- values ---\n\(context(values))\n--- bytes ---\n\(context(bytes))", sourceLocation: sourceLocation)
  }

  @Test func everyShippedExampleAtSeveralMoments() throws {
    let dir = Sim.repoRoot.appendingPathComponent("Examples").path
    var checked = 0
    for name in try FileManager.default.contentsOfDirectory(atPath: dir).sorted() where name.hasSuffix(".json") {
      let path = dir + "/" + name
      guard let state = try? StateFile.load(path: path) else { continue }  // a catalog, not a state file
      let history = CustomerHistory.load(state, statePath: path)
      for now in [Sim.at("2024-02-29T12:00:00Z"), Sim.at("2026-11-26T05:00:00.250Z"), Sim.at("2031-01-01T00:00:00Z")] {
        Self.expectSame(CustomerStory.derive(history, state: state, now: now), "\(name) at \(now)")
      }
      checked += 1
    }
    #expect(checked >= 15)
  }

  @Test func everyKindOfPeriodIncludingLapsesWithoutATransaction() {
    Self.expectSame(CustomerStoryTests.everyKind, "everyKind")
    #expect(CustomerStoryTests.everyKind.timeline.periods.contains { $0.transactionId == nil })
  }

  /// Dates no file holds but arithmetic can make, and strings that need escapes.
  @Test func oddInstantsAndStringsFallBackToWhatTheValuesSay() {
    let instants: [Double] = [0, -1, -86_400_001, 1_697_679_936_049.7297, 1_697_679_936_049.5, 951_782_400_000, 951_868_799_999,
                              -2_208_988_800_000, 32_503_680_000_000, 253_402_300_799_999, 253_402_300_800_000, -62_135_596_800_001,
                              9.5e15, -9.5e15, 1e18]
    var periods: [Timeline.Period] = []
    for (k, ms) in instants.enumerated() {
      periods.append(Timeline.Period(kind: Timeline.Kind.allCases[k % Timeline.Kind.allCases.count], start: Instant(ms: ms), end: Instant(ms: ms + 0.25),
                                     productId: k % 3 == 0 ? nil : "p\"\\\n\r\t\u{01}\u{7F}é€\(k)", transactionId: k % 2 == 0 ? "\(k)" : nil))
    }
    var story = CustomerStoryTests.everyKind
    story.timeline = Timeline(periods: periods, marks: [], now: Instant(ms: 0))
    Self.expectSame(story, "odd instants")
    story.timeline = Timeline(periods: [], marks: [], now: Instant(ms: 0))
    Self.expectSame(story, "no periods")
  }

  /// A product id written again from the text kept for the period before (the same string) and
  /// escaped again when the string changes: equal text in another string's storage, another
  /// product, no product, short (inline) and long (allocated) ids.
  @Test func repeatedAndChangingProductIdsAreWrittenAsTheirValues() {
    let long = "com.example.birdwatch.pass.family.monthly"
    let sameTextElsewhere = String(decoding: Array(long.utf8), as: UTF8.self)
    let ids: [String?] = [long, long, sameTextElsewhere, nil, nil, "pro.year", "pro.year", long, "pro\"quoted", nil, long]
    let periods = ids.enumerated().map { k, id in
      Timeline.Period(kind: .paid, start: Instant(ms: Double(k) * 1000), end: Instant(ms: Double(k + 1) * 1000), productId: id, transactionId: "\(k)")
    }
    var story = CustomerStoryTests.everyKind
    story.timeline = Timeline(periods: periods, marks: [], now: Instant(ms: 0))
    Self.expectSame(story, "product ids")
    var halves: [UInt8] = []
    story.writeTimelinePeriods(0..<5, into: &halves, indent: 2)
    story.writeTimelinePeriods(5..<ids.count, into: &halves, indent: 2)
    var whole: [UInt8] = []
    story.writeTimelinePeriods(0..<ids.count, into: &whole, indent: 2)
    #expect(halves == whole, "written in two ranges, the same bytes")
  }

  @Test func numbersAreSpelledAsJSONSpellsThem() {
    for v: Int64 in [0, 1, -1, 9, 10, 99, 100, 1_768_283_234_000, Int64.max, Int64.min, Int64.min + 1] {
      var out: [UInt8] = []
      JSONBytes.int(v, into: &out)
      #expect(String(decoding: out, as: UTF8.self) == String(v))
    }
    for v: Double in [0, -0.0, 1, -1, 0.5, 1_697_679_936_049.7297, 8.999_999_999_999_999e15, 9e15, 1e20, -1e-7, .infinity, .nan] {
      var out: [UInt8] = []
      JSONBytes.double(v, into: &out)
      guard case .number(let want) = JSON.double(v) else { Issue.record("not a number"); continue }
      #expect(String(decoding: out, as: UTF8.self) == want, "\(v)")
    }
  }

  @Test func wholeNumberLiteralsReadAsDoubleReadsThem() {
    for text in ["0", "7", "1768283234000", "999999999999999", "9999999999999999", "-5", "1.5", "1e3", "", "12a", "0001"] {
      #expect(ObjectReader.wholeNumber(text).map { $0 == Double(text) } ?? true, "\(text)")
    }
    #expect(ObjectReader.wholeNumber("9999999999999999") == nil)  // 16 digits: left to Double()
  }

  @Test func escapesAreTheOnesJSONWriterAlwaysWrote() {
    var out: [UInt8] = []
    JSONWriter.escape("a\"b\\c\n\r\t\u{01}\u{08}\u{0C}\u{1F}\u{7F}é€ plain", into: &out)
    #expect(String(decoding: out, as: UTF8.self) == "\"a\\\"b\\\\c\\n\\r\\t\\u0001\\u0008\\u000c\\u001f\\u007fé€ plain\"")
  }

  /// A history written out of purchase order, with an undated entry and notifications out of
  /// date order, is still sorted (the in-order check only skips sorting what is sorted).
  @Test func aHistoryOutOfOrderIsSortedAsBefore() {
    typealias S = CustomerStoryTests
    var undated = S.tx("9", from: 0, to: 1)
    undated.purchaseDate = nil
    let story = S.story([S.tx("2", from: 30, to: 60), undated, S.tx("1", from: 0, to: 30), S.tx("3", from: 60, to: 90)],
                        [S.event(.didRenew, at: S.day(60)), S.event(.didRenew, at: S.day(30))], now: S.day(100))
    #expect(story.transactions.map(\.transactionId) == ["1", "2", "3", "9"])
    #expect(story.events.map(\.date) == [S.day(30), S.day(60)])
    #expect(story.timeline.periods.compactMap(\.transactionId) == ["1", "2", "3"])
  }

  /// A long history through the real loader: 3,000 monthly renewals (sandbox speed) with
  /// extensions (a second version of a transaction), prorated refunds, failed renewals with a
  /// gap, a price change, a plan change and a fractional millisecond.
  @Test func aLongGeneratedHistoryThroughTheLoader() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("story-bytes-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.copyItem(atPath: Sim.catalogPath, toPath: dir + "/pass.storekit")
    let path = dir + "/long.json"
    let (text, count) = Self.longHistory(renewals: 3000)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let state = try StateFile.load(path: path)
    let story = CustomerStory.derive(CustomerHistory.load(state, statePath: path), state: state, now: Instant(ms: 1_800_000_000_000))
    #expect(story.transactions.count == count)
    let kinds = Set(story.timeline.periods.map(\.kind))
    #expect(kinds.isSuperset(of: [.paid, .extended, .revoked, .grace, .billingRetry, .lapsed]), "\(kinds)")
    #expect(!story.timeline.marks.isEmpty)
    Self.expectSame(story, "long history")
  }

  /// State-file text for `renewals` five-minute renewals; also how many transactions it holds.
  static func longHistory(renewals n: Int) -> (String, Int) {
    let start: Int64 = 1_767_983_534_000, period: Int64 = 300_000
    var transactions: [String] = [], notifications: [String] = []
    var at = start
    for k in 0..<n {
      var purchase = at
      if k > 0 && k % 211 == 0 {
        // A failed renewal, with grace every other time (billing retry otherwise), paid again a minute after.
        let subtype = (k / 211) % 2 == 1 ? #", "subtype": "GRACE_PERIOD""# : ""
        notifications.append(#"{"notificationType": "DID_FAIL_TO_RENEW"\#(subtype), "signedDate": \#(at), "productId": "pass.premium.monthly"}"#)
        purchase = at + 60_000
      }
      let product = k < n - 5 ? "pass.premium.monthly" : "pass.premium.annual"
      let price = k < n / 2 ? 9990 : 10990
      let purchaseText = k == 7 ? "\(purchase).7297" : "\(purchase)"
      let expires = purchase + period
      var fields = #""originalTransactionId": "2000000000000000", "transactionId": "\#(2_000_000_000_000_000 + k)", "productId": "\#(product)", "purchaseDate": \#(purchaseText), "originalPurchaseDate": \#(start), "expiresDate": \#(expires), "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED", "price": \#(price), "currency": "USD", "transactionReason": "\#(k == 0 ? "PURCHASE" : "RENEWAL")""#
      if k % 97 == 96 {
        fields += #", "revocationDate": \#(purchase + period / 2), "revocationType": "REFUND_PRORATED", "revocationPercentage": 50000, "revocationReason": 0"#
      }
      transactions.append("{" + fields + "}")
      if k % 50 == 49 && k % 97 != 96 {
        // Extended by a minute: the same transaction again with a later expiry.
        transactions.append("{" + fields.replacingOccurrences(of: #""expiresDate": \#(expires)"#, with: #""expiresDate": \#(expires + 60_000)"#) + "}")
        at = expires + 60_000
      } else {
        at = expires
      }
      notifications.append(#"{"notificationType": "DID_RENEW", "signedDate": \#(purchase), "productId": "\#(product)", "summary": "renewed \#(k)"}"#)
    }
    let latest = transactions.last ?? "null"
    let text = #"{"format": "subdash-state/1", "catalogFile": "pass.storekit", "subscriber": {"latestTransaction": \#(latest), "transactions": [\#(transactions.joined(separator: ",\n"))], "notifications": [\#(notifications.joined(separator: ",\n"))]}}"#
    return (text, n)
  }
}
