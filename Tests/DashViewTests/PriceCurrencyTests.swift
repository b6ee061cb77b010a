import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView

/// Prices always carry a currency, even for a customer who never bought anything (new
/// subscriber, Ask to Buy): there the currency a purchase would be charged in
/// (`Simulator.currency`). Before, the plans read "11.99 / 1 month".
@Suite struct PriceCurrencyTests {
  @Test(arguments: Scenarios.exampleNames)
  func everyPriceOnScreenNamesItsCurrency(_ name: String) throws {
    let scenario = Scenarios.example(name)
    let text = render(scenario.viewModel(), UIState(), width: 200, height: 50).textDump
    let bare = text.matches(of: try Regex("[0-9]+\\.[0-9]{2} / ")).map { String(text[$0.range]) }
    #expect(bare.isEmpty, "\(name): \(bare)")
  }
}
