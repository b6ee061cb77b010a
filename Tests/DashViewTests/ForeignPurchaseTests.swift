import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView

/// Issue 22 §5: data the catalog cannot read as its subscription gets one verdict on screen and
/// keys that fit it.
@Suite struct ForeignPurchaseTests {
  /// Xcode data imported with a catalog that lacks its product showed "✖ EXPIRED" above "No
  /// subscription: never subscribed" and offered F (refund) on that expired transaction.
  @Test func aProductTheCatalogLacksIsSaidOnceAndItsKeysAreOff() {
    let vm = Scenarios.expiredWithWinBack.with { s in
      s.subscriber.latestTransaction?.productId = "com.other.app.premium"
      s.subscriber.renewalInfo?.productId = "com.other.app.premium"
      s.subscriber.renewalInfo?.autoRenewProductId = "com.other.app.premium"
    }.viewModel()
    let screen = render(vm, UIState(), width: 120, height: 40).textDump
    #expect(screen.contains("UNKNOWN PRODUCT  com.other.app.premium is not in the catalog"), "\(screen)")
    #expect(screen.contains("Unknown product com.other.app.premium: not in the catalog"))
    #expect(!screen.contains("✖ EXPIRED"))
    #expect(!screen.contains("never subscribed"))
    let keys = FooterPanel.hints(vm, UIState(), glyphs: .unicode, ascii: false).map(\.key)
    #expect(!keys.contains("F"), "\(keys)")
    #expect(!keys.contains("x"))
    #expect(Availability.of(.simulate(.refund), in: vm, UIState())
      == .unavailable("refund: com.other.app.premium is not in the catalog, so SubDash cannot act on it"))
  }

  /// An Apple-signed consumable is not an expired subscription.
  @Test func aConsumableIsSaidToBeOne() {
    let vm = Scenarios.active.with { s in
      s.subscriber.latestTransaction?.type = "Consumable"
      s.subscriber.latestTransaction?.productId = "coins.100"
      s.subscriber.latestTransaction?.expiresDate = nil
      s.subscriber.renewalInfo = nil
    }.viewModel()
    let screen = render(vm, UIState(), width: 120, height: 40).textDump
    #expect(screen.contains("NOT A SUBSCRIPTION  coins.100 is a Consumable purchase, not an auto-renewable subscription"), "\(screen)")
    #expect(screen.contains("ACCESS: NO SUBSCRIPTION"))
    #expect(screen.contains("Not an auto-renewable subscription: Consumable coins.100"))
    #expect(!screen.contains("✖ EXPIRED"))
    #expect(!screen.contains("not renewing"))
    let lines = PlainReport.lines(vm, ascii: false)
    #expect(lines.contains { $0.contains("Not an auto-renewable subscription: Consumable coins.100") })
  }
}

/// `show --json`'s `purchase` carries the same verdict as the screen.
@Suite struct PurchaseVerdictJSONTests {
  @Test func aConsumableAndAnUnknownProductAreFlagged() {
    let consumable = Scenarios.active.with { s in
      s.subscriber.latestTransaction?.type = "Consumable"
      s.subscriber.latestTransaction?.productId = "coins.100"
    }
    let c = PurchaseVerdict.json(consumable.state)?.objectValue
    #expect(c?["verdict"]?.stringValue == "notASubscription")
    #expect(c?["autoRenewableSubscription"] == .bool(false))
    #expect(c?["type"]?.stringValue == "Consumable")
    let unknown = Scenarios.active.with { s in s.subscriber.latestTransaction?.productId = "com.other.app.premium" }
    let u = PurchaseVerdict.json(unknown.state)?.objectValue
    #expect(u?["verdict"]?.stringValue == "unknownProduct")
    #expect(u?["inCatalog"] == .bool(false))
    #expect(u?["autoRenewableSubscription"] == .bool(true))
    let known = PurchaseVerdict.json(Scenarios.active.state)?.objectValue
    #expect(known?["verdict"]?.stringValue == "subscription")
    #expect(known?["inCatalog"] == .bool(true))
  }
}
