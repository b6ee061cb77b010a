import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberImport

/// Without a `.storekit` file the catalog is built from the transactions. A product whose
/// transactions say it is a consumable, non-consumable or non-renewing subscription (`type`) is
/// listed as what it is, as a `.storekit` file lists it, and not filed as a plan under a
/// subscription group (the plans panel showed a consumable as a plan with "level ?").
@Suite struct DerivedCatalogOtherProductsTests {
  /// Apple's sample transaction (app-store-server-library's signedTransaction.json) as Apple
  /// signs a purchase of `type`: the fields only an auto-renewable subscription has are gone.
  static func applesSample(type: String, productId: String = "com.example.acorns") throws -> String {
    var t = try #require(try JSONSerialization.jsonObject(with: Data(Fixture.bytes("appstore/signedTransaction.json"))) as? [String: Any])
    for key in ["expiresDate", "subscriptionGroupIdentifier", "webOrderLineItemId", "offerType", "offerIdentifier",
                "offerDiscountType", "offerPeriod", "isUpgraded", "revocationReason", "revocationDate",
                "billingPlanType", "commitmentInfo", "advancedCommerceInfo"] {
      t[key] = nil
    }
    t["type"] = type
    t["productId"] = productId
    t["environment"] = "Sandbox"
    return String(decoding: try JSONSerialization.data(withJSONObject: t), as: UTF8.self)
  }

  static func importedWithoutCatalog(_ transactions: [String]) throws -> SubscriptionState {
    let m = try ImportKit.merge([ImportKit.input("history.json", ImportKit.historyPage(transactions, hasMore: false))])
    return try Importer.viewingState(m, catalog: .derived, label: "history.json") { (_) throws(StateFileError) -> Catalog in
      throw StateFileError(file: "", message: "no catalog file")
    }
  }

  @Test func anAppleSignedConsumableIsAnOtherProductNotAPlan() throws {
    let state = try Self.importedWithoutCatalog([Self.applesSample(type: "Consumable")])
    #expect(state.subscriber.latestTransaction?.type == "Consumable")
    let c = state.catalog
    #expect(c.derivedFromTransactions)
    #expect(c.allSubscriptions.isEmpty, "\(c.groups)")
    #expect(c.product("com.example.acorns") == nil)
    let acorns = try #require(c.otherProduct("com.example.acorns"))
    #expect(acorns.kind == .consumable)
    #expect(acorns.priceMilli == 10990)
    #expect(PurchaseVerdict.of(state) == .notASubscription(type: "Consumable", productId: "com.example.acorns"))
    #expect(PurchaseVerdict.json(state)?.objectValue?["catalogType"]?.stringValue == "Consumable")
  }

  @Test func eachKindIsListedAsWhatItIs() throws {
    let nonConsumable = try Self.importedWithoutCatalog([Self.applesSample(type: "Non-Consumable", productId: "lifetime")])
    #expect(nonConsumable.catalog.otherProduct("lifetime")?.kind == .nonConsumable)
    #expect(nonConsumable.catalog.allSubscriptions.isEmpty)

    let pass = try Self.importedWithoutCatalog([Self.applesSample(type: "Non-Renewing Subscription", productId: "season.pass")])
    #expect(pass.catalog.otherProduct("season.pass")?.kind == .nonRenewingSubscription)
    #expect(pass.catalog.allSubscriptions.isEmpty)

    // A type Apple may add later is kept as written, still not a plan.
    let odd = try Self.importedWithoutCatalog([Self.applesSample(type: "Subscription Pass", productId: "odd")])
    #expect(odd.catalog.otherProduct("odd")?.kind == .other("Subscription Pass"))
    #expect(odd.catalog.allSubscriptions.isEmpty)
  }

  /// A subscription's transactions still make plans; a product without any `type` stays one too.
  @Test func autoRenewableProductsStayPlans() throws {
    let sub = ImportKit.transaction(1, otid: "12345", purchase: 1_770_000_000_000)
    let untyped = #"{"transactionId":"2","originalTransactionId":"12345","productId":"untyped","purchaseDate":1770000100000,"signedDate":1770000100000,"environment":"Sandbox"}"#
    let state = try Self.importedWithoutCatalog([sub, untyped])
    #expect(state.catalog.allSubscriptions.map(\.productID).sorted() == ["pro.monthly", "untyped"])
    #expect(state.catalog.otherProducts.isEmpty)
  }
}
