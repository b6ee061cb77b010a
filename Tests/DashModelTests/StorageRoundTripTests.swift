import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// Load → action through `StateFile.update` → reload, on real files: whatever SubDash does not
/// understand must come back exactly as it was written.
@Suite("Storage: round trips keep unknown fields and exact numbers")
struct StorageRoundTripTests {
  static let now = utc("2026-01-25T12:00:00Z")

  /// Apple's sample transaction (with advancedCommerceInfo, commitmentInfo, billingPlanType,
  /// appTransactionId), made current: a Family Pass period around `now`, not refunded.
  static func sampleTransaction() -> JSONObject {
    var t = parse(Fixture.text("appstore/signedTransaction.json")).objectValue!
    t["productId"] = .string("pass.family")
    t["purchaseDate"] = .int(Int64(utc("2026-01-10T12:00:00Z").ms))
    t["expiresDate"] = .int(Int64(utc("2026-02-10T12:00:00Z").ms))
    t["revocationDate"] = nil
    t["revocationReason"] = nil
    t["isUpgraded"] = nil
    return t
  }

  /// Apple's sample renewal info, healthy and renewing into the same product.
  static func sampleRenewalInfo() -> JSONObject {
    var r = parse(Fixture.text("appstore/signedRenewalInfo.json")).objectValue!
    r["productId"] = .string("pass.family")
    r["autoRenewProductId"] = .string("pass.family")
    for key in ["isInBillingRetryPeriod", "gracePeriodExpiresDate", "expirationIntent", "offerType", "offerIdentifier", "offerDiscountType", "offerPeriod"] {
      r[key] = nil
    }
    return r
  }

  static func document() -> JSON {
    let xcode = parse(Fixture.jwsPayload("appstore/xcode_xcode-signed-transaction.jws"))
    return .object(JSONObject([
      ("format", .string("subdash-state/1")),
      ("x-top", parse(#"{"keep": [1, 2.50, "three", null, true, 1e3]}"#)),
      ("catalog", parse(ActionsFixture.catalog)),
      ("offerCodes", parse("""
        [{ "type": "oneTime", "productId": "pass.family", "offerReference": "family-any", "codes": ["FAM-1"],
           "redeemedCodes": [], "x-batch": { "campaign": "spring" } }]
        """)),
      ("policy", parse(#"{"billingRetryAccess": "none", "x-policy": 1}"#)),
      ("subscriber", .object(JSONObject([
        ("x-sub", .string("keep me")),
        ("latestTransaction", .object(sampleTransaction())),
        ("renewalInfo", .object(sampleRenewalInfo())),
        ("transactions", .array([xcode])),
        ("notifications", .array([
          parse(Fixture.text("appstore/signedNotification.json")),
          parse(Fixture.text("appstore/signedSummaryNotification.json")),
        ])),
      ]))),
    ]))
  }

  @Test func unknownFieldsSurviveEveryLevelThroughThreeActions() throws {
    let dir = TempDir()
    let path = dir.write("state.json", JSONWriter.write(Self.document()))
    try update(path, .setAutoRenew(false), at: Self.now)
    try update(path, .redeemOfferCode("fam-1"), at: Self.now + .hours(1))
    try update(path, .upgrade(toProductId: "pass.premium"), at: Self.now + .hours(2))

    let saved = parse(dir.text("state.json"))
    let original = Self.document()
    #expect(value(saved, "x-top") == value(original, "x-top"))
    #expect(value(saved, "policy") == value(original, "policy"))
    #expect(value(saved, "catalog") == value(original, "catalog"))
    #expect(value(saved, "subscriber", "x-sub") == .string("keep me"))
    // The inline history keeps every entry as it was, first; the actions' own history follows it
    // (a young subscriber's history is inline, StateFile.inlineHistoryLimit).
    for key in ["transactions", "notifications"] {
      let kept = try #require(value(original, "subscriber", key)?.arrayValue)
      let now = try #require(value(saved, "subscriber", key)?.arrayValue)
      #expect(Array(now.prefix(kept.count)) == kept, "\(key): an inline entry changed")
      #expect(now.count > kept.count, "\(key): the actions' history is not there")
    }

    let batch = try #require(value(saved, "offerCodes")?.arrayValue?.first)
    #expect(value(batch, "x-batch") == parse(#"{"campaign": "spring"}"#))
    #expect(value(batch, "redeemedCodes") == .array([.string("FAM-1")]))

    // Renewal info: only what the actions own changed.
    let renewal = try #require(value(saved, "subscriber", "renewalInfo"))
    for key in ["advancedCommerceInfo", "appTransactionId", "eligibleWinBackOfferIds", "appAccountToken", "recentSubscriptionStartDate"] {
      #expect(value(renewal, key) == Self.sampleRenewalInfo()[key], "\(key)")
    }
    // Apple's sample is a commitment payment, and an upgrade ends the commitment at once (Apple,
    // "Supporting monthly subscriptions with a 12-month commitment"): the upgrade owns these two.
    #expect(value(renewal, "commitmentInfo") == nil)
    #expect(value(renewal, "renewalBillingPlanType") == nil)
    #expect(value(renewal, "productId") == .string("pass.premium"))

    // The history (inline: a young subscriber's) keeps the upgraded transaction whole, unknown
    // fields and all, right before the new one.
    let state = try StateFile.load(path: path)
    let added = try state.subscriber.transactions.typed().dropFirst(1)  // the file's own inline one first
    #expect(added.count == 2)
    guard let upgraded = added.first, upgraded.isUpgraded == true, let new = added.last, new.isUpgraded != true else {
      Issue.record("expected the upgraded and the new transaction in the history, got \(added)")
      return
    }
    var expectedOld = Self.sampleTransaction()
    expectedOld["isUpgraded"] = .bool(true)
    expectedOld["proratedRefundMilli"] = upgraded.source["proratedRefundMilli"]
    #expect(fields(upgraded.json) == fields(.object(expectedOld)))
    #expect(upgraded.source["advancedCommerceInfo"] == Self.sampleTransaction()["advancedCommerceInfo"])
    #expect(new == state.subscriber.latestTransaction)
    #expect(new.source["appTransactionId"] == .string("71134"))
    #expect(new.source["advancedCommerceInfo"] == nil)  // it belonged to the old purchase
    #expect(state.historySummary.notificationCount == 2 + 3)
  }

  @Test func xcodeFractionalMillisecondsSurviveByteForByte() throws {
    let dir = TempDir()
    let path = dir.write("state.json", JSONWriter.write(Self.document()))
    try update(path, .setAutoRenew(false), at: Self.now)
    let text = dir.text("state.json")
    #expect(text.contains(#""purchaseDate": 1697679936049.7297"#))
    #expect(text.contains(#""signedDate": 1697679936056.485"#))
    #expect(text.contains(#""expiresDate": 1700358336049.7297"#))
    let reloaded = try StateFile.load(path: path)
    #expect(try reloaded.subscriber.transactions.transaction(at: 0).purchaseDate == Instant(ms: 1697679936049.7297))
  }

  @Test func aSaveThatChangesNothingWritesTheSameBytes() throws {
    let dir = TempDir()
    let original = JSONWriter.write(Self.document())
    let path = dir.write("state.json", original)
    try StateFile.update(path: path) { (state) throws(StateFileError) -> Change in Change(state: state, message: "nothing") }
    #expect(dir.bytes("state.json") == original)
    #expect(!FileManager.default.fileExists(atPath: dir.file("state.journal.jsonl")))
  }

  @Test func aRefusedActionLeavesTheFileAsItWas() throws {
    let dir = TempDir()
    let original = JSONWriter.write(Self.document())
    let path = dir.write("state.json", original)
    #expect(throws: StateFileError.self) { try update(path, .upgrade(toProductId: "pass.family"), at: Self.now) }
    #expect(throws: StateFileError.self) { try update(path, .redeemOfferCode("NOPE"), at: Self.now) }
    #expect(dir.bytes("state.json") == original)
  }
}
