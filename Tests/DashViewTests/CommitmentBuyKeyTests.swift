import Foundation
import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues
@testable import SimulationRuns

/// `b` for a product with a monthly billing plan (issue 21 §1): the plan list offers the yearly
/// price up front and the monthly plan with its 12-month commitment, as Apple's purchase sheet
/// does, and the monthly choice is previewed and performed like every other key.
@Suite struct CommitmentBuyKeyTests {
  /// Examples/new-subscriber.json (Ask to Buy off) with the commitment catalog
  /// (Examples/scenarios/commitment.storekit: Premium Annual 99.99 or 9.49 a month for 12 months).
  static func newCustomer() -> Scenario {
    Scenarios.example("new-subscriber").with(name: "commitment-new") { s in
      s.document.simulation?["askToBuy"] = nil
      let path = Scenarios.examples.appendingPathComponent("scenarios/commitment.storekit").path
      let bytes = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
      if let catalog = try? StoreKitReader.read(ObjectReader(JSONParser.parse(bytes), at: .root)) { s = SubscriptionState(document: s.document, catalog: catalog) }
    }
  }

  static func lapsed() -> ViewModel { newCustomer().viewModel() }

  @Test func theBuyListOffersYearlyUpFrontAndMonthlyWithItsCommitment() {
    let vm = Self.lapsed()
    let titles = vm.advisor.targets(.buy).map(\.title)
    #expect(titles.contains { $0.hasPrefix("Premium Annual — yearly up front: 99.99") }, "\(titles)")
    #expect(titles.contains { $0.hasPrefix("Premium Annual — monthly, 12-month commitment: 9.49") && $0.contains("/ month, 113.88") }, "\(titles)")
    // A product without a monthly plan is one choice, as before.
    #expect(titles.filter { $0.hasPrefix("Premium Monthly — ") }.count == 1, "\(titles)")
  }

  @Test func choosingTheMonthlyPlanPreviewsPaymentOneOfTwelveAndBuysIt() throws {
    let vm = Self.lapsed()
    let monthly = PlanAction.buy(productId: "pass.premium.annual", billingPlan: .monthly)
    let items = vm.advisor.targets(.buy)
    let index = try #require(items.firstIndex { $0.action == monthly })
    let preview = try vm.advisor.preview(monthly).get()
    #expect(preview.summary.hasPrefix("Subscribe to Premium Annual now: 9.49"), "\(preview.summary)")
    #expect(preview.summary.contains("(payment 1 of 12, 113.88"), "\(preview.summary)")
    #expect(preview.summary.contains("in total, commitment ends "), "\(preview.summary)")

    var ui = UIState()
    _ = reduce(&ui, .resized(width: 150, height: 40), context: vm)
    _ = reduce(&ui, .keyPressed(.char("b")), context: vm)
    for _ in 0..<index { _ = reduce(&ui, .keyPressed(.down), context: vm) }
    _ = reduce(&ui, .keyPressed(.enter), context: vm)
    guard case .confirming(let c) = ui.mode else { Issue.record("no confirmation: \(ui.mode)"); return }
    #expect(c.action == monthly)
    #expect(reduce(&ui, .keyPressed(.char("y")), context: vm) == [.perform(monthly)])

    // What `y` writes: a MONTHLY transaction, payment 1 of 12.
    let s = Self.newCustomer()
    let change = try Actions.apply(monthly, to: s.state, at: s.now).get()
    let t = try #require(change.state.subscriber.latestTransaction)
    #expect(t.billingPlanType == .monthly)
    #expect(t.commitmentInfo?.billingPeriodNumber == 1)
    #expect(t.price == 9490)
    // The up-front choice stays the product's own price, without a commitment.
    let upFront = try Actions.apply(.buy(productId: "pass.premium.annual"), to: s.state, at: s.now).get()
    #expect(upFront.state.subscriber.latestTransaction?.commitmentInfo == nil)
  }
}
