import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberImport

/// Issue 22: a `.storekit` file's consumables, non-consumables and non-renewing subscriptions are
/// read (they were ignored), so the catalog says they exist and a transaction for one is named by
/// the catalog instead of being taken for a product the catalog lacks.
@Suite struct CatalogOtherProductsTests {
  @Test func backyardBirdsListsItsSixConsumables() throws {
    let c = try StorageCatalogFileTests.load("backyard-birds.storekit").catalog
    #expect(c.otherProducts.map(\.productID) == ["pellet.single", "pellet.box", "acorns.individual", "acorns.collection", "nectar.cup", "nectar.bottle"])
    #expect(c.otherProducts.allSatisfy { $0.kind == .consumable })
    #expect(c.otherProduct("acorns.individual")?.displayName == "Golden Acorn")
    #expect(c.otherProduct("acorns.individual")?.priceMilli == 990)
    // Not plans: the subscription group is as it was.
    #expect(c.allSubscriptions.count == 3)
    #expect(c.product("pellet.single") == nil)
  }

  @Test func purchaseTesterHasOneOfEachKind() throws {
    let c = try StorageCatalogFileTests.load("revenuecat-purchase-tester-v3.storekit").catalog
    let coins = try #require(c.otherProduct("com.revenuecat.purchaseTester.500coins.1.99"))
    #expect(coins.kind == .consumable && coins.displayName == "500 coins" && coins.priceMilli == 1990)
    let lifetime = try #require(c.otherProduct("com.revenuecat.purchaseTester.lifetime.199.99"))
    #expect(lifetime.kind == .nonConsumable && lifetime.familyShareable && lifetime.kind.transactionType == "Non-Consumable")
    let archive = try #require(c.otherProduct("com.revenuecat.purchaseTester.archiveSub.1.20.99"))
    #expect(archive.kind == .nonRenewingSubscription && archive.displayName == "1 year access" && archive.priceMilli == 20990)
    #expect(archive.kind.transactionType == "Non-Renewing Subscription")
  }

  @Test func formatFiveReadsTheSame() throws {
    let c = try StorageCatalogFileTests.load("revenuecat-unit-tests-v5.storekit").catalog
    #expect(c.otherProducts.map(\.productID) == ["lifetime", "com.revenuecat.consumable", "com.revenuecat.non_renewable"])
    #expect(c.otherProducts.map(\.kind) == [.nonConsumable, .consumable, .nonRenewingSubscription])
  }

  /// A type a newer Xcode might write is kept as written, not refused; an id used twice is refused
  /// with where; a bad price says where.
  @Test func unknownTypesAreKeptAndBadEntriesSayWhere() throws {
    let odd = try Self.read(#"{"products":[{"productID":"x","type":"Subscription Pass","displayPrice":"2","futureKey":{"a":1}}]}"#)
    #expect(odd.otherProduct("x")?.kind == .other("Subscription Pass"))
    #expect(odd.otherProduct("x")?.displayName == "x")

    let twice = #"{"subscriptionGroups":[{"id":"g","subscriptions":[{"productID":"x","groupNumber":1,"recurringSubscriptionPeriod":"P1M","displayPrice":"1"}]}],"products":[{"productID":"x","type":"Consumable"}]}"#
    #expect(throws: DecodeError.self) { try Self.read(twice) }
    do { _ = try Self.read(twice) } catch { #expect("\(error)".contains("$.products: product id \"x\" appears twice"), "\(error)") }

    do { _ = try Self.read(#"{"products":[{"productID":"x","type":"Consumable","displayPrice":"free"}]}"#); Issue.record("accepted") }
    catch { #expect("\(error)".contains("$.products[0].displayPrice"), "\(error)") }
    do { _ = try Self.read(#"{"products":[{"productID":"x"}]}"#); Issue.record("accepted") }
    catch { #expect("\(error)".contains("$.products[0].type"), "\(error)") }
  }

  /// An imported consumable transaction is named by the catalog: its type, its display name.
  @Test func anImportedConsumableIsNamedFromTheCatalog() throws {
    let coins = #"{"transactionId":"77","originalTransactionId":"77","productId":"com.revenuecat.purchaseTester.500coins.1.99","purchaseDate":1770000000000,"signedDate":1770000000000,"price":1990,"currency":"USD","environment":"Sandbox","type":"Consumable","quantity":1}"#
    let m = try ImportKit.merge([ImportKit.input("coins.json", ImportKit.historyPage([coins], hasMore: false))])
    guard case .object(let storekit) = try JSONParser.parse(Fixture.bytes("storekit/revenuecat-purchase-tester-v3.storekit")) else {
      Issue.record("the fixture is not an object"); return
    }
    let state = try Importer.viewingState(m, catalog: .inline(storekit), label: "coins") { (_) throws(StateFileError) -> Catalog in
      throw StateFileError(file: "", message: "no catalog file")
    }
    #expect(PurchaseVerdict.of(state) == .notASubscription(type: "Consumable", productId: "com.revenuecat.purchaseTester.500coins.1.99"))
    let json = try #require(PurchaseVerdict.json(state)?.objectValue)
    #expect(json["verdict"]?.stringValue == "notASubscription")
    #expect(json["inCatalog"] == .bool(true))
    #expect(json["displayName"]?.stringValue == "500 coins")
    #expect(json["catalogType"]?.stringValue == "Consumable")
  }

  /// A transaction that carries no `type` but whose product the catalog lists as a non-renewing
  /// subscription is that, not an unknown product.
  @Test func aTransactionWithoutTypeTakesTheCatalogsKind() throws {
    let c = try StorageCatalogFileTests.load("revenuecat-purchase-tester-v3.storekit")
    var s = c
    s.subscriber.latestTransaction = try TransactionPayload(ObjectReader(
      JSONParser.parse(Array(#"{"transactionId":"9","originalTransactionId":"9","productId":"com.revenuecat.purchaseTester.archiveSub.1.20.99","purchaseDate":1770000000000}"#.utf8)), at: .root))
    #expect(PurchaseVerdict.of(s) == .notASubscription(type: "Non-Renewing Subscription", productId: "com.revenuecat.purchaseTester.archiveSub.1.20.99"))
  }

  static func read(_ text: String) throws -> Catalog {
    try StoreKitReader.read(ObjectReader(JSONParser.parse(Array(text.utf8)), at: .root))
  }
}
