import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// Support staff paste payloads from the App Store Server API (or decoded Xcode JWS) straight into
/// a state file. Apple's own samples must load as they are and get a status.
@Suite("Storage: App Store payload samples pasted into a state file")
struct StorageAppStoreSampleTests {
  static func stateText(transaction: String, renewal: String, catalogFile: String) -> String {
    """
    {
      "catalogFile": "\(catalogFile)",
      "subscriber": {
        "latestTransaction": \(transaction),
        "renewalInfo": \(renewal)
      }
    }
    """
  }

  @Test func serverApiSamplesLoadWithEveryFieldAndAStatus() throws {
    let dir = TempDir()
    dir.copyFixture("storekit/backyard-birds.storekit")
    let path = dir.write("support-case.json", Self.stateText(
      transaction: Fixture.text("appstore/signedTransaction.json"),
      renewal: Fixture.text("appstore/signedRenewalInfo.json"),
      catalogFile: "backyard-birds.storekit"))
    let state = try StateFile.load(path: path)

    let t = try #require(state.subscriber.latestTransaction)
    #expect(t.transactionId == "23456")
    #expect(t.originalTransactionId == "12345")
    #expect(t.price == 10990)
    #expect(t.currency == "USD")
    #expect(t.offerType == .introductory)
    #expect(t.offerDiscountType == .payAsYouGo)
    #expect(t.environment == .localTesting)
    #expect(t.revocationReason == .issueInApp)
    #expect(t.isUpgraded == true)
    #expect(t.source["commitmentInfo"] != nil)
    let r = try #require(state.subscriber.renewalInfo)
    #expect(r.autoRenewProductId == "com.example.product.2")
    #expect(r.expirationIntent == .customerCancelled)
    #expect(r.eligibleWinBackOfferIds == ["eligible1", "eligible2"])
    #expect(r.renewalPrice == 9990)

    // revocationDate 1698148950000 wins over everything from that instant on.
    #expect(Lifecycle.status(of: state.subscriber, at: Instant(ms: 1698148950000)).status == .revoked)
    #expect(Lifecycle.status(of: state.subscriber, at: Instant(ms: 1698148949999)).status == .active)
    // The sample's product is not in the catalog: loading still works, actions say why they cannot.
    #expect(state.currentProduct == nil)
    #expect(Actions.apply(.setAutoRenew(false), to: state, at: Instant(ms: 1698148900000)).failure == .currentProductUnknown("com.example.product"))
  }

  @Test func decodedXcodeJwsPayloadsLoadAndKeepTheirFractionalMilliseconds() throws {
    let dir = TempDir()
    dir.copyFixture("storekit/backyard-birds.storekit")
    let path = dir.write("xcode.json", Self.stateText(
      transaction: Fixture.jwsPayload("appstore/xcode_xcode-signed-transaction.jws"),
      renewal: Fixture.jwsPayload("appstore/xcode_xcode-signed-renewal-info.jws"),
      catalogFile: "backyard-birds.storekit"))
    let state = try StateFile.load(path: path)
    let t = try #require(state.subscriber.latestTransaction)
    #expect(t.productId == "pass.premium")
    #expect(t.purchaseDate == Instant(ms: 1697679936049.7297))
    #expect(t.expiresDate == Instant(ms: 1700358336049.7297))
    #expect(t.environment == .xcode)
    #expect(t.source["deviceVerificationNonce"] == .string("7edea87d-98f0-42d0-9682-49ca81022f73"))
    #expect(state.currentProduct?.displayName == "Premium")
    #expect(state.currentGroup?.id == "6F3A93AB")
    #expect(state.subscriber.renewalInfo?.autoRenewOn == true)

    let expires = Instant(ms: 1700358336049.7297)
    #expect(Lifecycle.status(of: state.subscriber, at: expires - .millisecond).status == .active)
    #expect(Lifecycle.status(of: state.subscriber, at: expires).status == .expired)

    // An action on it keeps the pasted transaction exactly as Xcode wrote it.
    let before = String(decoding: JSONWriter.write(t.json), as: UTF8.self)
    try update(path, .setAutoRenew(false), at: Instant(ms: 1697766336049.7297))
    let after = try StateFile.load(path: path)
    #expect(String(decoding: JSONWriter.write(after.subscriber.latestTransaction!.json), as: UTF8.self) == before)
    #expect(after.subscriber.renewalInfo?.autoRenewStatus == .off)
    #expect(dir.text("xcode.json").contains(#""signedDate": 1697679936056.485"#))
    #expect(dir.text("xcode.json").contains(#""recentSubscriptionStartDate": 1697679936049.7297"#))
  }

  @Test func notificationPayloadsLoadIntoTheLog() throws {
    let dir = TempDir()
    let path = dir.write("log.json", """
      { "catalog": \(ActionsFixture.catalog),
        "subscriber": { "notifications": [
          \(Fixture.text("appstore/signedNotification.json")),
          \(Fixture.text("appstore/signedSummaryNotification.json"))
        ] } }
      """)
    let state = try StateFile.load(path: path)
    let log = state.subscriber.notifications
    #expect(log.map(\.label) == ["SUBSCRIBED / INITIAL_BUY", "RENEWAL_EXTENSION / SUMMARY"])
    #expect(log[0].status == .active)  // from data.status
    #expect(log[0].signedDate == Instant(ms: 1698148900000))
    #expect(log[1].summary == nil)
    #expect(log[1].source["summary"]?.objectValue?["succeededCount"] == .int(5))
    #expect(Lifecycle.status(of: state.subscriber, at: Instant(ms: 0)).status == nil)
  }
}

extension Result {
  var failure: Failure? { if case .failure(let e) = self { return e } else { return nil } }
}
