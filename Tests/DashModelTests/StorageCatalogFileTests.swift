import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// Real .storekit files, referenced by a state file beside them, read as catalogs.
@Suite("Storage: .storekit files as catalogs")
struct StorageCatalogFileTests {
  static func load(_ fixture: String) throws -> SubscriptionState {
    let dir = TempDir()
    let name = (fixture as NSString).lastPathComponent
    dir.copyFixture("storekit/\(fixture)")
    let path = dir.write("state.json", #"{ "catalogFile": "\#(name)", "subscriber": {} }"#)
    return try StateFile.load(path: path)
  }

  @Test func backyardBirdsVersion3() throws {
    let c = try Self.load("backyard-birds.storekit").catalog
    #expect(c.formatVersion == "3.0")
    #expect(c.groups.map(\.id) == ["6F3A93AB"])
    let g = c.groups[0]
    #expect(g.name == "Backyard Birds Pass")
    #expect(g.tiers.map(\.productID) == ["pass.premium", "pass.family", "pass.individual"])
    #expect(g.tiers.map(\.level) == [1, 2, 3])
    #expect(g.tiers.map(\.priceMilli) == [11990, 7990, 4990])
    #expect(g.tiers.map(\.displayName) == ["Premium", "Family", "Individual"])
    #expect(g.tiers.allSatisfy { $0.period == "P1M" })
    #expect(g.tiers.map(\.familyShareable) == [true, true, false])
    for p in g.subscriptions {
      #expect(p.introductoryOffers.count == 1)
      #expect(p.introductoryOffers.first?.paymentMode == .freeTrial)
      #expect(p.introductoryOffers.first?.period == "P1M")
      #expect(p.introductoryOffers.first?.priceMilli == 0)
      #expect(p.codeOffers.isEmpty && p.promotionalOffers.isEmpty)
    }
    #expect(c.settings.storefront == "USA")
    #expect(c.settings.locale == "en_US")
    #expect(c.settings.billingGracePeriodEnabled == false)
  }

  @Test func purchaseTesterVersion3WithCodeOffers() throws {
    let c = try Self.load("revenuecat-purchase-tester-v3.storekit").catalog
    #expect(c.formatVersion == "3.0")
    #expect(c.groups.count == 6)
    #expect(c.allSubscriptions.count == 13)
    let tester = try #require(c.product("test_product1"))
    #expect(tester.level == 1 && tester.period == "P1W" && tester.priceMilli == 6990)
    #expect(tester.codeOffers.map(\.referenceName) == ["my_offer_code", "my_test_code", "test2"])
    #expect(tester.codeOffers[0].eligibility == [.new, .existing, .expired])
    #expect(tester.codeOffers[0].isStackable)
    #expect(tester.codeOffers[0].terms.paymentMode == .freeTrial && tester.codeOffers[0].terms.period == "P3D")
    #expect(tester.codeOffers[1].eligibility == [.existing])
    #expect(!tester.codeOffers[1].isStackable)
    #expect(tester.codeOffers[2].eligibility == [.new])
    #expect(tester.codeOffers[2].terms.paymentMode == .payAsYouGo && tester.codeOffers[2].terms.priceMilli == 990)
    #expect(tester.promotionalOffers.map(\.id) == ["test"])
    #expect(tester.promotionalOffers[0].numberOfPeriods == 2 && tester.promotionalOffers[0].priceMilli == 1990)

    let p1 = try #require(c.product("P1"))
    #expect(p1.codeOffers.last?.terms.numberOfPeriods == 5)
    #expect(p1.codeOffers.last?.eligibility == [.expired])
    #expect(p1.promotionalOffers.count == 3)
    let p2 = try #require(c.product("P2"))
    #expect(p2.displayName == "deema_test_1")  // no localization: the reference name
    #expect(p2.introductoryOffers.first?.paymentMode == .payUpFront)
    #expect(p2.introductoryOffers.first?.priceMilli == 2990)
    #expect(p2.introductoryOffers.first?.period == "P2M")
    #expect(c.group(of: "purchasetester_7999_1y")?.tiers.map(\.productID) == ["purchasetester_199_1w", "purchasetester_699_1m", "purchasetester_7999_1y"])
    #expect(c.product("greenie_annual")?.period == "P1Y" && c.product("greenie_annual")?.priceMilli == 99990)
  }

  @Test func unitTestsVersion5WithIntroductoryOfferArraysAndSettings() throws {
    let c = try Self.load("revenuecat-unit-tests-v5.storekit").catalog
    #expect(c.formatVersion == "5.0")
    #expect(c.groups.map(\.name) == ["subscription_group_1", "subscription_group_2"])
    let monthly = try #require(c.product("com.revenuecat.monthly_4.99.1_week_intro"))
    // v5 writes the same offer as introductoryOffer and as introductoryOffers[0]: one offer.
    #expect(monthly.introductoryOffers.count == 1)
    #expect(monthly.introductoryOffers.first?.paymentMode == .freeTrial)
    #expect(monthly.introductoryOffers.first?.period == "P3M")
    #expect(monthly.promotionalOffers.map(\.paymentMode) == [.payUpFront, .payAsYouGo])
    #expect(monthly.promotionalOffers.map(\.priceMilli) == [40990, 20150])
    #expect(monthly.winBackOffers.isEmpty)
    #expect(c.product("com.revenuecat.annual_39.99.2_week_intro")?.introductoryOffers.map(\.period) == ["P2W"])
    #expect(c.product("com.revenuecat.annual_with_commitment")?.introductoryOffers.isEmpty == true)
    #expect(c.product("com.revenuecat.annual_with_commitment")?.priceMilli == 11880)
    // An empty displayName falls back to the reference name.
    #expect(c.product("com.revenuecat.annual_with_commitment")?.displayName == "sub with 12mo monthly commitment")
    #expect(c.settings.timeRate == 0)
    #expect(c.settings.askToBuyEnabled == false)
    #expect(c.settings.billingGracePeriodEnabled == false)
    #expect(c.settings.renewalBillingIssuesEnabled == false)
    #expect(c.settings.storefront == "USA")
  }

  @Test func aStateFileCanActOnAStoreKitCatalog() throws {
    let dir = TempDir()
    dir.copyFixture("storekit/backyard-birds.storekit", as: "Store.storekit")
    let path = dir.write("state.json", """
      { "catalogFile": "Store.storekit",
        "subscriber": { "latestTransaction": \(Fixture.jwsPayload("appstore/xcode_xcode-signed-transaction.jws")),
                        "renewalInfo": \(Fixture.jwsPayload("appstore/xcode_xcode-signed-renewal-info.jws")) } }
      """)
    let catalogBytes = dir.bytes("Store.storekit")
    let saved = try update(path, .downgrade(toProductId: "pass.individual"), at: Instant(ms: 1697766336049.7297))
    #expect(saved.state.subscriber.renewalInfo?.autoRenewProductId == "pass.individual")
    #expect(dir.bytes("Store.storekit") == catalogBytes)  // the catalog is only read
  }
}
