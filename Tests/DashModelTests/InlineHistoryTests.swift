import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// Inline history (`subscriber.transactions`) is read for its summary on load and typed on
/// demand: what loading checks, what it leaves for later, and what it writes back.
@Suite("Inline history")
struct InlineHistoryTests {
  static func file(history: String) -> String {
    """
    { "catalog": { "subscriptionGroups": [] },
      "subscriber": {
        "transactions": [
    \(history)
        ] } }
    """
  }

  static let first = #"      { "transactionId": "1", "purchaseDate": 1767225600000, "expiresDate": 1769904000000, "offerType": 1, "offerDiscountType": "FREE_TRIAL" },"#

  @Test func aWrongTypeInAFieldTheSummaryReadsStopsTheLoadWithFileLineAndPath() throws {
    let dir = TempDir()
    let path = dir.write("state.json", Self.file(history: Self.first + "\n" + #"      { "transactionId": "2", "purchaseDate": "2026-02-01" }"#))
    #expect {
      try StateFile.load(path: path)
    } throws: { error in
      "\(error)" == "state.json:5:47: $.subscriber.transactions[1].purchaseDate: expected a number, found a string"
    }
  }

  @Test func aWrongTypeInAnotherFieldLoadsAndIsReportedWithItsPathWhenTheEntryIsTyped() throws {
    let dir = TempDir()
    let path = dir.write("state.json", Self.file(history: Self.first + "\n" + #"      { "transactionId": "2", "price": "7.99" }"#))
    let state = try StateFile.load(path: path)
    #expect(state.subscriber.transactions.count == 2)
    #expect(try state.subscriber.transactions.transaction(at: 0).transactionId == "1")
    #expect(throws: DecodeError(JSONPath.root.appending("subscriber").appending("transactions").appending(1).appending("price"),
                                "expected an integer, found a string")) {
      try state.subscriber.transactions.typed()
    }
  }

  @Test func theSummaryFoldedOnLoadEqualsTheFoldOfTheTypedEntriesForEveryExample() throws {
    var checked = 0
    for stem in try ExamplesTests.stems() {
      let state = try StateFile.load(path: ExamplesTests.directory.appendingPathComponent("\(stem).json").path)
      var fold = HistorySummary()
      for t in try state.subscriber.transactions.typed() { fold.add(t) }
      #expect(state.subscriber.transactions.summary == fold, "\(stem).json")
      if !state.subscriber.transactions.isEmpty { checked += 1 }
    }
    #expect(checked >= 10)
  }

  @Test func entriesWriteBackAsTheyWereSpelled() throws {
    let dir = TempDir()
    let entry = #"      { "transactionId": "2", "quantity": 1.0, "purchaseDate": 1.7699040e12, "note": "kept" }"#
    let path = dir.write("state.json", Self.file(history: Self.first + "\n" + entry))
    let before = try StateFile.load(path: path)
    try StateFile.update(path: path) { (state) throws(StateFileError) in Change(state: state, message: "nothing") }
    let text = dir.text("state.json")
    #expect(text.contains(#""quantity": 1.0"#))
    #expect(text.contains(#""purchaseDate": 1.7699040e12"#))
    #expect(try StateFile.load(path: path).subscriber == before.subscriber)
  }

  @Test func appendingATransactionFoldsItIntoTheSummary() throws {
    var history = InlineHistory()
    var t = TransactionPayload()
    t.purchaseDate = Instant(ms: 1_000)
    t.expiresDate = Instant(ms: 3_000)
    t.offerType = .winBack
    t.offerIdentifier = "back"
    history.append(t)
    #expect(history.count == 1)
    #expect(history.summary.paidMillis == 2_000)
    #expect(history.summary.winBackRedeemed == ["back": Instant(ms: 1_000)])
    #expect(try history.transaction(at: 0) == TransactionPayload(ObjectReader(t.json, at: .root)))
  }
}
