import Testing

@testable import DashModel
@testable import CoreValues

/// Contradictory files load, get a status, and name each contradiction in one line.
@Suite("Lifecycle: warnings for contradictory files")
struct LifecycleWarningsTests {
  typealias F = LifecycleFixture
  let midPeriod = "2026-04-15 00:00"

  func warnings(transaction t: String = F.transaction(), renewal r: String = F.renewal(), extra: String = "", at now: String? = nil) throws -> [String] {
    try F.report(F.subscriber(transaction: t, renewal: r), extra: extra, at: now ?? midPeriod).warnings
  }

  @Test func aConsistentFileHasNoWarnings() throws {
    #expect(try warnings() == [])
    #expect(try warnings(at: "2026-05-20 00:00") == [])
  }

  /// A file from a newer SubDash loads, keeps what this one does not know, and says so.
  @Test func aNewerFormatIsFlagged() throws {
    var state = try F.state(F.subscriber())
    #expect(Lifecycle.derive(state, at: F.at(midPeriod)).warnings == [])
    state.document.format = "subdash-state/2"
    #expect(Lifecycle.derive(state, at: F.at(midPeriod)).warnings == [
      "format \"subdash-state/2\" is not subdash-state/1, the one this SubDash reads: fields it does not know are kept but not shown",
    ])
  }

  @Test func aGraceDateWithoutTheRetryFlagStillMeansGraceButIsFlagged() throws {
    let r = F.renewal(#""gracePeriodExpiresDate": \#(F.ms("2026-05-17 10:00"))"#)
    let report = try F.report(F.subscriber(renewal: r), at: "2026-05-17 10:00")
    #expect(report.status == .expired)
    #expect(report.warnings == [])
    let inGrace = try F.report(F.subscriber(renewal: r), at: "2026-05-02 00:00")
    #expect(inGrace.status == .billingGracePeriod)
    #expect(inGrace.warnings == ["gracePeriodExpiresDate 2026-05-17 10:00 UTC is set but isInBillingRetryPeriod is not true (treated as billing grace period)"])
  }

  @Test func winBackIdsWhileActive() throws {
    let r = F.renewal(#""eligibleWinBackOfferIds": ["comeback"]"#)
    #expect(try warnings(renewal: r) == ["eligibleWinBackOfferIds lists comeback while the subscription is active (win-back is only for expired subscriptions)"])
  }

  /// Only with complete history (here a journal) does SubDash apply its rules and compare; with
  /// a file holding only the latest transaction it shows Apple's list and has nothing to compare.
  @Test func winBackIdsThatDisagreeWithSubDashsRules() throws {
    let offer = #"{"offerId": "ours", "productId": "pro.monthly", "offerMode": "FREE_TRIAL", "duration": "ONE_MONTH"}"#
    let journal = #""journal": {"file": "t.journal.jsonl", "committedBytes": 0, "summary": {"transactionCount": 1}},"#
    let extra = #""winBackOffers": [\#(offer)],"# + journal
    let apple = F.renewal(#""eligibleWinBackOfferIds": ["theirs"]"#, autoRenew: 0)
    #expect(try warnings(renewal: apple, extra: extra, at: "2026-05-20 00:00") == [
      "eligibleWinBackOfferIds [theirs] differs from SubDash's rules [ours]; SubDash shows its own",
    ])
    let agreeing = F.renewal(#""eligibleWinBackOfferIds": ["ours"]"#, autoRenew: 0)
    #expect(try warnings(renewal: agreeing, extra: extra, at: "2026-05-20 00:00") == [])
    // Without the offer configured, SubDash finds nothing eligible.
    #expect(try warnings(renewal: agreeing, extra: journal, at: "2026-05-20 00:00") == ["eligibleWinBackOfferIds [ours] differs from SubDash's rules [none]; SubDash shows its own"])
    #expect(try warnings(renewal: apple, extra: #""winBackOffers": [\#(offer)],"#, at: "2026-05-20 00:00") == [])
  }

  @Test func expiresDateBeforePurchaseDate() throws {
    let t = F.transaction(purchase: "2026-05-01 10:00", expires: "2026-04-01 10:00")
    #expect(try warnings(transaction: t) == ["expiresDate 2026-04-01 10:00 UTC is before purchaseDate 2026-05-01 10:00 UTC"])
  }

  @Test func productsMissingFromTheCatalog() throws {
    let t = F.transaction(productId: "legacy.monthly")
    let r = F.renewal(autoRenewProductId: "legacy.monthly").replacingOccurrences(of: #""productId": "pro.monthly""#, with: #""productId": "legacy.monthly""#)
    #expect(try warnings(transaction: t, renewal: r) == [
      #"productId "legacy.monthly" is not in the catalog"#, #"autoRenewProductId "legacy.monthly" is not in the catalog"#,
    ])
  }

  @Test func renewalInfoAboutAnotherProductOrPurchase() throws {
    let r = F.renewal()
      .replacingOccurrences(of: #""productId": "pro.monthly""#, with: #""productId": "plus.monthly""#)
      .replacingOccurrences(of: "2000000100000001", with: "2000000199999999")
    #expect(try warnings(renewal: r) == [
      #"renewalInfo.productId "plus.monthly" differs from latestTransaction.productId "pro.monthly""#,
      #"renewalInfo.originalTransactionId "2000000199999999" differs from latestTransaction.originalTransactionId "2000000100000001""#,
    ])
  }

  @Test func revocationDates() throws {
    let early = F.transaction(#""revocationDate": \#(F.ms("2026-03-01 00:00"))"#)
    #expect(try warnings(transaction: early) == ["revocationDate 2026-03-01 00:00 UTC is before purchaseDate 2026-04-01 10:00 UTC"])
    let future = F.transaction(#""revocationDate": \#(F.ms("2026-04-20 00:00"))"#)
    #expect(try warnings(transaction: future) == ["revocationDate 2026-04-20 00:00 UTC is in the future (not counted as revoked yet)"])
  }

  @Test func unknownEnumValuesAreNamedButKept() throws {
    let t = F.transaction(#""offerType": 7, "offerDiscountType": "BOGO", "revocationType": "REFUND_PARTIAL_2""#)
      .replacingOccurrences(of: "PURCHASED", with: "BORROWED")
    let r = F.renewal(#""expirationIntent": 6, "priceIncreaseStatus": 2"#, autoRenew: 3)
    let report = try F.report(F.subscriber(transaction: t, renewal: r), at: midPeriod)
    #expect(report.offerInEffect?.text == "offer of unknown type 7 (unknown (BOGO))")
    #expect(report.warnings == [
      #"latestTransaction.inAppOwnershipType "BORROWED" is unknown"#,
      "latestTransaction.offerType 7 is unknown",
      #"latestTransaction.offerDiscountType "BOGO" is unknown"#,
      #"latestTransaction.revocationType "REFUND_PARTIAL_2" is unknown"#,
      "renewalInfo.autoRenewStatus 3 is unknown",
      "renewalInfo.expirationIntent 6 is unknown",
      "renewalInfo.priceIncreaseStatus 2 is unknown",
    ])
  }

  @Test func environmentMismatch() throws {
    let r = F.renewal().replacingOccurrences(of: "Sandbox", with: "Production")
    #expect(try warnings(renewal: r) == ["environment differs: latestTransaction says Sandbox, renewalInfo says Production"])
  }

  @Test func anUpgradedLatestTransaction() throws {
    let t = F.transaction(#""isUpgraded": true"#)
    #expect(try warnings(transaction: t) == ["latestTransaction.isUpgraded is true: the customer upgraded away from it, so the newer transaction is missing"])
  }

  @Test func missingRenewalInfo() throws {
    let report = try F.report(F.transaction(), at: midPeriod)
    #expect(report.renewal == .expiresAutoRenewOff(date: F.at(F.expires)))
    #expect(report.warnings == ["renewalInfo is missing: auto-renew is treated as off"])
  }

  @Test func aMissingExpiresDate() throws {
    let t = F.transaction().replacingOccurrences(of: #", "expiresDate": \#(F.ms(F.expires))"#, with: "")
    let report = try F.report(F.subscriber(transaction: t), at: midPeriod)
    #expect(report.status == .expired)
    #expect(report.statusRule == "no expiresDate")
    #expect(report.warnings == ["latestTransaction has no expiresDate"])
  }

  @Test func billingRetryFlaggedPastSixtyDays() throws {
    let r = F.renewal(#""isInBillingRetryPeriod": true"#)
    let end = F.at("2026-06-30 10:00")
    #expect(Lifecycle.derive(try F.state(F.subscriber(renewal: r)), at: end - .millisecond).warnings == [])
    let last = try F.report(F.subscriber(renewal: r), at: "2026-06-30 10:00")
    #expect(last.status == .billingRetry)
    #expect(last.warnings == ["isInBillingRetryPeriod is true but Apple's 60-day billing retry ended 2026-06-30 10:00 UTC"])
  }

  @Test func autoRenewProductInAnotherGroup() throws {
    #expect(try warnings(renewal: F.renewal(autoRenewProductId: "other.monthly")) == [
      #"autoRenewProductId "other.monthly" is in group G2, not in G1 with "pro.monthly""#,
    ])
  }

  @Test func transactionGroupDisagreesWithTheCatalog() throws {
    let t = F.transaction().replacingOccurrences(of: #""subscriptionGroupIdentifier": "G1""#, with: #""subscriptionGroupIdentifier": "21345678""#)
    #expect(try warnings(transaction: t) == [#"subscriptionGroupIdentifier "21345678" differs from the catalog's group "G1" for "pro.monthly""#])
  }

  @Test func secondsWrittenWhereMillisecondsBelong() throws {
    let t = F.transaction().replacingOccurrences(of: F.ms(F.expires), with: "1777629600")
    let report = try F.report(F.subscriber(transaction: t), at: midPeriod)
    #expect(report.status == .expired)
    #expect(report.warnings == [
      "expiresDate 1970-01-21 13:47 UTC is before purchaseDate 2026-04-01 10:00 UTC",
      "latestTransaction.expiresDate 1970-01-21 13:47 UTC is before the App Store opened: seconds instead of milliseconds?",
    ])
  }
}
