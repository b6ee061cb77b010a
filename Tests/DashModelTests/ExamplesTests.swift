import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// Every file in Examples/ is a test case: it loads through the real loader (catalogFile included)
/// and, at its own simulated `now`, shows the situation its name promises.
@Suite("Examples")
struct ExamplesTests {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples")

  static let expected: Set<String> = [
    "active", "auto-renew-off", "pending-downgrade", "pending-crossgrade", "price-increase", "grace-period",
    "billing-retry", "expired-voluntary", "expired-billing", "expired-price-increase", "refunded", "family-shared",
    "ask-to-buy", "offer-in-effect", "new-subscriber", "contradictory", "storekit-catalog", "server-api-latest-only",
    "commitment",
  ]

  static func stems() throws -> Set<String> {
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    return Set(names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) })
  }

  /// Loads an example and derives its report at the file's own simulated clock.
  func load(_ stem: String) throws -> (SubscriptionState, LifecycleReport) {
    let state = try StateFile.load(path: Self.directory.appendingPathComponent("\(stem).json").path)
    guard case .number(let text)? = state.document.simulation?["now"], let now = Double(text) else {
      Issue.record("\(stem).json has no simulation.now")
      throw CancellationError()
    }
    return (state, Lifecycle.derive(state, at: Instant(ms: now)))
  }

  func date(_ text: String) -> Instant { try! Format.parseDate(text) }

  @Test func theDirectoryHoldsExactlyTheDocumentedExamples() throws {
    #expect(try Self.stems() == Self.expected)
  }

  @Test(arguments: expected.sorted())
  func everyExampleIsAStableSubdashStateFile(stem: String) throws {
    let (state, report) = try load(stem)
    #expect(state.document.format == "subdash-state/1")
    #expect(report.now == date("2026-05-14 15:00"))
    if stem != "contradictory" { #expect(report.warnings == [], "\(stem)") }
    if let t = state.subscriber.latestTransaction {
      #expect(t.bundleId == "com.example.birdwatch")
      // The App Store Server API's shape has no history: no notifications either.
      if stem != "server-api-latest-only" { #expect(state.subscriber.notifications.count >= 1) }
    }
  }

  /// Get All Subscription Statuses returns the latest transaction and renewal info only: SubDash
  /// cannot count paid time, so the panel shows Apple's list, in Apple's order, and no warning.
  @Test func serverAPILatestOnlyShowsApplesWinBackList() throws {
    let (state, r) = try load("server-api-latest-only")
    #expect(!state.historyIsComplete)
    #expect(r.status == .expired)
    #expect(r.winBack.source == .apple)
    #expect(r.winBack.eligible.map(\.offerId) == ["premium_winback_half", "premium_winback_3for1"])
    #expect(r.winBack.unconfiguredIds == ["premium_winback_spring"])
  }

  @Test func commitmentIsPaymentFourOfTwelveRenewingMonthly() throws {
    let (_, r) = try load("commitment")
    #expect(r.status == .active)
    #expect(r.commitment?.text(currentProductId: r.product?.productID) { $0 }
      == "payment 4 of 12 · commitment ends 2027-02-01 · then renews monthly at 10.99 GBP")
  }

  @Test func activeIsTheDemoFamilyPlanRenewingNextWeek() throws {
    let (_, r) = try load("active")
    #expect(r.status == .active)
    #expect(r.access == AccessVerdict(.yes, rule: "subscribed"))
    #expect(r.product?.displayName == "Family")
    #expect(r.renewal == .renews(date: date("2026-05-23 18:32:14"), productId: "pass.family.monthly", priceMilli: 7990, currency: "USD"))
    #expect(r.winBack.whyNone == "subscription is active")
  }

  @Test func autoRenewOffEndsOnJune2() throws {
    let (_, r) = try load("auto-renew-off")
    #expect(r.access.level == .yes)
    #expect(r.renewal == .expiresAutoRenewOff(date: date("2026-06-02 09:15")))
    #expect(r.expiry?.reason == "auto-renew is off: access ends at expiresDate (not expired yet)")
  }

  @Test func pendingDowngradeToIndividual() throws {
    let (_, r) = try load("pending-downgrade")
    #expect(r.pendingChange == PendingChange(kind: .downgrade, toProductId: "pass.individual.monthly", effectiveDate: date("2026-05-17 20:05:44")))
    #expect(r.renewal == .switches(date: date("2026-05-17 20:05:44"), toProductId: "pass.individual.monthly"))
  }

  @Test func pendingCrossgradeToAnnual() throws {
    let (_, r) = try load("pending-crossgrade")
    #expect(r.pendingChange?.kind == .crossgrade)
    #expect(r.pendingChange?.toProductId == "pass.premium.annual")
  }

  @Test func priceIncreaseAwaitsConsent() throws {
    let (_, r) = try load("price-increase")
    #expect(r.renewal == .awaitsPriceConsent(date: date("2026-05-30 11:20"), newPriceMilli: 17990))
    #expect(r.priceIncrease?.status == .customerHasNotResponded)
  }

  @Test func gracePeriodKeepsAccessUntilMay26() throws {
    let (_, r) = try load("grace-period")
    #expect(r.status == .billingGracePeriod)
    #expect(r.access == AccessVerdict(.yes, rule: "in billing grace period until 2026-05-26 06:00 UTC"))
    #expect(r.grace?.remaining == date("2026-05-26 06:00") - date("2026-05-14 15:00"))
    #expect(r.billingRetry?.retryUntil == date("2026-07-09 06:00"))
  }

  @Test func billingRetryHasNoAccess() throws {
    let (_, r) = try load("billing-retry")
    #expect(r.status == .billingRetry)
    #expect(r.access.level == .no)
    #expect(r.billingRetry == BillingRetryInfo(since: date("2026-04-25 16:30"), retryUntil: date("2026-06-24 16:30"), accessDuringRetry: .none))
    #expect(r.winBack.whyNone == "in billing retry")
  }

  /// Only Premium's offers: the customer's most recent subscription was Premium Monthly.
  @Test func expiredVoluntaryIsEligibleForTwoWinBackOffersBestFirst() throws {
    let (_, r) = try load("expired-voluntary")
    #expect(r.status == .expired)
    #expect(r.expiry?.reason == "customer cancelled (auto-renew turned off)")
    #expect(r.winBack.eligible.map(\.offerId) == ["premium_winback_3for1", "premium_winback_half"])
  }

  @Test func expiredBillingNeverPaid() throws {
    let (s, r) = try load("expired-billing")
    #expect(r.expiry?.intent == .billingError)
    #expect(s.historySummary.paidMillis == 0)
    #expect(r.winBack.whyNone == "no win-back offers configured for pass.individual.monthly")
  }

  @Test func expiredPriceIncreaseIsTooSoonForWinBack() throws {
    let (_, r) = try load("expired-price-increase")
    #expect(r.expiry?.reason == "did not consent to a price increase")
    #expect(r.priceIncrease == nil)
    #expect(r.winBack.whyNone == "too soon: eligible from 2026-06-01 12:00 UTC")
  }

  @Test func refundedIsAProductionSupportCase() throws {
    let (s, r) = try load("refunded")
    #expect(r.environment == .production)
    #expect(r.status == .revoked)
    #expect(r.access.level == .no)
    #expect(r.revocation?.text == "refunded 2026-03-20 10:02 UTC: full refund; refunded due to an issue in the app")
    #expect(s.subscriber.source["supportTicket"] == .string("SUP-48213"))
  }

  @Test func familySharedAccessSaysSo() throws {
    let (_, r) = try load("family-shared")
    #expect(r.ownership == .familyShared)
    #expect(r.access == AccessVerdict(.yes, rule: "subscribed; shared through Family Sharing"))
  }

  @Test func askToBuyWaitsForAParent() throws {
    let (s, r) = try load("ask-to-buy")
    #expect(r.status == nil)
    #expect(r.askToBuy?.productId == "pass.individual.monthly")
    #expect(s.catalog.settings.askToBuyEnabled)
  }

  @Test func offerInEffectIsSpring2026() throws {
    let (s, r) = try load("offer-in-effect")
    #expect(r.environment == .xcode)
    #expect(r.offerInEffect?.text == "offer code Spring 2026 (pay as you go, 3 × 1 month, 1 period left)")
    #expect(r.offerQueued?.identifier == "Spring 2026")
    #expect(s.subscriber.redeemedOfferCodes.map(\.code) == ["SPRING26"])
  }

  @Test func newSubscriberHasNothingYet() throws {
    let (s, r) = try load("new-subscriber")
    #expect(r.status == nil && r.access.level == .no && r.askToBuy == nil)
    #expect(s.document.offerCodes.map { $0.code ?? "oneTime" } == ["SPRING26", "COMEBACK", "BIRDFEST", "WINTER25", "oneTime"])
  }

  @Test func contradictoryLoadsAndListsEveryContradiction() throws {
    let (s, r) = try load("contradictory")
    #expect(r.status == .billingGracePeriod)
    #expect(r.warnings == [
      "latestTransaction.isUpgraded is true: the customer upgraded away from it, so the newer transaction is missing",
      #"renewalInfo.productId "pass.duo.monthly" differs from latestTransaction.productId "pass.family.monthly""#,
      "environment differs: latestTransaction says Sandbox, renewalInfo says Production",
      #"autoRenewProductId "pass.premium.weekly" is not in the catalog"#,
      "gracePeriodExpiresDate 2026-05-27 14:00 UTC is set but isInBillingRetryPeriod is not true (treated as billing grace period)",
      "eligibleWinBackOfferIds lists family_winback_free_month while the subscription is in the billing grace period (win-back is only for expired subscriptions)",
      "renewalInfo.offerType 7 is unknown",
    ])
    #expect(s.subscriber.source["x-imported-from"] != nil)
  }

  @Test func storekitCatalogReadsTheBackyardBirdsFile() throws {
    let (s, r) = try load("storekit-catalog")
    #expect(s.document.catalogReference == .file("backyard-birds.storekit"))
    #expect(s.catalog.formatVersion == "3.0")
    #expect(r.product?.displayName == "Family")
    #expect(r.offerInEffect?.text == "introductory offer (free trial, 1 month)")
    #expect(s.subscriber.latestTransaction?.purchaseDate?.ms == 1_776_710_736_049.7297)
    #expect(s.allWinBackOffers.map(\.offerId) == ["bb_premium_winback"])
  }
}

/// The error lines quoted in docs/state-file.md are the real ones.
@Suite("Examples: documented errors")
struct DocumentedErrorTests {
  @Test func aStringWhereAnIntegerBelongsIsLocatedToLineColumnAndPath() throws {
    let path = ExamplesTests.directory.appendingPathComponent("active.json").path
    let text = try String(contentsOfFile: path, encoding: .utf8)
      .replacingOccurrences(of: #""autoRenewStatus": 1"#, with: #""autoRenewStatus": "on""#)
    #expect(throws: StateFileError(file: "active.json", line: 33, column: 26,
                                   path: JSONPath.root.appending("subscriber").appending("renewalInfo").appending("autoRenewStatus"),
                                   message: "expected an integer, found a string")) {
      _ = try StateFile.decode(Array(text.utf8), fileName: "active.json") { (n: String) throws(StateFileError) -> Catalog in
        throw StateFileError(file: n, message: "unused")
      }
    }
    let doc = try String(contentsOf: ExamplesTests.directory.deletingLastPathComponent().appendingPathComponent("docs/state-file.md"), encoding: .utf8)
    #expect(doc.contains("active.json:33:26: $.subscriber.renewalInfo.autoRenewStatus: expected an integer, found a string"))
  }
}
