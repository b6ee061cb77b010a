import Testing
@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// A file loaded to be viewed reads its inline history for the story while it is parsed
/// (InlineHistory+Viewing.swift). What it tells must be what the file read whole tells: the same
/// summary, the same story transactions, the same entries left out, or the same error at the
/// same place.
@Suite struct ViewedInlineHistoryTests {
  /// What a viewer gets from a history: the summary, the story's transactions and how many
  /// entries the story left out.
  struct Told: Equatable {
    var summary: HistorySummary
    var story: [StoryTransaction]
    var skipped: Int
    var count: Int
  }

  static func entry(_ k: Int, _ extra: String = "") -> String {
    "{\"originalTransactionId\": \"1\", \"transactionId\": \"2000000\(k)\", \"purchaseDate\": \(1_700_000_000_000 + k * 2_592_000_000), "
      + "\"expiresDate\": \(1_700_000_000_000 + (k + 1) * 2_592_000_000), \"productId\": \"pro.monthly\", \"price\": 9990, \"currency\": \"USD\"\(extra)}"
  }

  static func told(_ entries: [String], viewing: Bool) -> Result<Told, StateFileError> {
    Result { () throws(StateFileError) -> Told in
      let text = "{\"format\": \"subdash-state/1\", \"catalog\": \(LifecycleFixture.catalog), \"subscriber\": {\"transactions\": [\n"
        + entries.joined(separator: ",\n") + "\n]}}"
      let state = try StateFile.decode(Array(text.utf8), fileName: "test.json", projection: viewing ? InlineHistory.storyProjection : nil) {
        (name: String) throws(StateFileError) -> Catalog in throw StateFileError(file: name, message: "tests use inline catalogs")
      }
      let history = CustomerHistory.load(state, statePath: "/nonexistent/test.json")
      return Told(summary: state.subscriber.transactions.summary, story: history.transactions, skipped: history.skippedEntries,
                  count: state.subscriber.transactions.count)
    }
  }

  /// Every key a transaction can have, given a value of the wrong type in turn, on the second
  /// of three entries. A field the story or the summary reads and the viewing projection drops
  /// fails this test.
  @Test(arguments: [
    "appAccountToken", "billingPlanType", "bundleId", "commitmentInfo", "currency", "environment", "expiresDate",
    "inAppOwnershipType", "isUpgraded", "offerDiscountType", "offerIdentifier", "offerPeriod", "offerType",
    "originalPurchaseDate", "originalTransactionId", "price", "productId", "purchaseDate", "quantity",
    "revocationDate", "revocationPercentage", "revocationReason", "revocationType", "signedDate", "storefront",
    "storefrontId", "subscriptionGroupIdentifier", "transactionId", "transactionReason", "type",
    "webOrderLineItemId", "advancedCommerceInfo",
  ])
  func aFieldOfTheWrongTypeTellsTheSame(_ key: String) throws {
    var o = try #require(JSONParser.parse(Array(Self.entry(1).utf8)).objectValue)
    o[key] = .array([.bool(true)])
    let entries = [Self.entry(0), JSONWriter.string(.object(o), pretty: false), Self.entry(2)]
    let whole = Self.told(entries, viewing: false), viewed = Self.told(entries, viewing: true)
    #expect(viewed == whole, "\(key) of the wrong type")
  }

  @Test func aPlainHistoryIsReadForTheStory() throws {
    let entries = (0..<5).map { Self.entry($0) }
    let viewed = try Self.told(entries, viewing: true).get()
    #expect(viewed == (try Self.told(entries, viewing: false).get()))
    #expect(viewed.story.count == 5)
    #expect(viewed.summary.transactionCount == 5)
    #expect(viewed.story.last?.transactionId == "20000004")
  }

  @Test func anEntryThatIsNotAnObjectFailsAtItsPlace() throws {
    let entries = [Self.entry(0), Self.entry(1), "17", Self.entry(3)]
    let viewed = Self.told(entries, viewing: true)
    #expect(viewed == Self.told(entries, viewing: false))
    guard case .failure(let error) = viewed else { Issue.record("a number as an entry must fail"); return }
    #expect(error.description.contains("$.subscriber.transactions[2]"), "\(error)")
    #expect(error.description.contains("expected an object, found a number") || error.description.contains("expected an object"), "\(error)")
  }

  @Test func keysSpelledWithEscapesOrNotInASCIITellTheSame() throws {
    let escaped = Self.entry(1).replacingOccurrences(of: "\"price\"", with: "\"pr\\u0069ce\"")
    let unknown = Self.entry(2, ", \"n\u{00F6}te\": \"kept by the file\"")
    let entries = [Self.entry(0), escaped, unknown, Self.entry(3)]
    let viewed = try Self.told(entries, viewing: true).get()
    #expect(viewed == (try Self.told(entries, viewing: false).get()))
    #expect(viewed.story.count == 4)
    #expect(viewed.story[1].price == 9990)
  }

  /// Pieces read on other threads, some entries left as JSON among them: the same history as
  /// one thread reading the whole document.
  @Test func aLongHistoryReadInPiecesTellsTheSame() throws {
    var entries: [String] = []
    for k in 0..<3_000 {
      switch k % 97 {
      case 13: entries.append(Self.entry(k, ", \"price\": \"free\"").replacingOccurrences(of: "\"price\": 9990, ", with: ""))
      case 41: entries.append(Self.entry(k, ", \"offerType\": 1, \"offerDiscountType\": \"FREE_TRIAL\""))
      default: entries.append(Self.entry(k))
      }
    }
    let text = "{\"subscriber\": {\"transactions\": [\n" + entries.joined(separator: ",\n") + "\n]}}"
    let bytes = Array(text.utf8)
    let path = JSONPath.root.appending("subscriber").appending("transactions")
    let whole = try JSONParser.parse(bytes)
    let wholeHistory = try InlineHistory(try #require(try ObjectReader(whole, at: .root).object("subscriber")), key: "transactions")
    let wholeStory = wholeHistory.entries.enumerated().compactMap { try? StoryTransaction(ObjectReader($1, in: path, index: $0)) }
    #expect(wholeStory.count == 3_000 - 31, "the entries with a price of the wrong type are left out")
    for cores in [2, 4] {
      let parsed = try bytes.withUnsafeBufferPointer { b in
        try JSONParser.parse(b, maxDepth: JSONParser.defaultMaxDepth, piecesFrom: 0, cores: cores, projection: InlineHistory.storyProjection)
      }
      #expect(parsed.piecesTaken > 0)
      let viewed = try InlineHistory(viewing: parsed.projectedRuns, path: path)
      #expect(viewed.summary == wholeHistory.summary)
      #expect(viewed.count == 3_000)
      #expect(viewed.viewed?.story == wholeStory)
    }
  }
}
