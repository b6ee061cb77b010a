import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView
@testable import SimulationRuns

/// Issue 22: a `.storekit` file's consumables, non-consumables and non-renewing subscriptions show
/// where support looks for the catalog's products (the plans panel, `show`, the buy dialog), named
/// as what they are and never offered as plans to switch to.
@Suite struct OtherProductsRenderTests {
  /// Examples/storekit-catalog.json reads Examples/backyard-birds.storekit (six consumables).
  static var birds: Scenario { Scenarios.example("storekit-catalog") }

  @Test func thePlansPanelListsTheConsumablesAsNotPlans() {
    let vm = Self.birds.viewModel()
    assertSnapshot(render(vm, UIState(), width: 120, height: 40), named: "storekit-other-products-120x40")
    let lines = PlainReport.lines(vm, ascii: false)
    #expect(lines.contains { $0.contains("consumables (not plans): Nutritional Pellet 1.99") && $0.contains("Bottle of Nectar 1.99") }, "\(lines)")
  }

  @Test func theBuyDialogSaysWhatElseTheCatalogSellsAndOffersOnlyPlans() {
    // Lapsed a day after the purchase, auto-renew off: `b` buys again.
    let vm = Self.birds.with { s in
      let purchased = s.subscriber.latestTransaction?.purchaseDate
      s.subscriber.latestTransaction?.expiresDate = purchased.map { $0 + .days(1) }
      s.subscriber.renewalInfo?.autoRenewStatus = .off
      s.subscriber.renewalInfo?.expirationIntent = .customerCancelled
    }.viewModel()
    let items = vm.advisor.targets(.buy)
    #expect(items.map(\.title).allSatisfy { !$0.contains("Pellet") && !$0.contains("Acorn") && !$0.contains("Nectar") }, "\(items)")
    var ui = UIState()
    ui.mode = .picking(Picker(kind: .buy, items: items))
    let frame = render(vm, ui, width: 80, height: 24)
    assertSnapshot(frame, named: "overlay-picker-buy-other-products-80x24")
    #expect(frame.textDump.contains("Also in the catalog, not plans: 6 consumables"), "\(frame.textDump)")
  }

  /// A consumable the catalog lists is named with its display name and kind.
  @Test func aConsumableTheCatalogListsIsNamedByIt() {
    let vm = Self.birds.with { s in
      s.subscriber.latestTransaction?.type = "Consumable"
      s.subscriber.latestTransaction?.productId = "acorns.individual"
      s.subscriber.latestTransaction?.expiresDate = nil
      s.subscriber.renewalInfo = nil
    }.viewModel()
    let screen = render(vm, UIState(), width: 120, height: 40).textDump
    #expect(screen.contains("NOT A SUBSCRIPTION  Golden Acorn (acorns.individual) is a Consumable purchase"), "\(screen)")
    #expect(screen.contains("Not an auto-renewable subscription: Consumable Golden Acorn (acorns.individual)"))
  }
}
