import Testing
@testable import DashModel
@testable import DashView

/// Accepting a win-back offer subscribes to the offer's product, which may not be the plan the
/// customer lapsed from: a lapsed Premium subscriber is offered a Family free month too.
@Suite struct WinBackTitleTests {
  @Test func everyOfferNamesTheProductItSubscribesTo() {
    let text = PlainReport.lines(Scenarios.example("expired-voluntary").viewModel()).joined(separator: "\n")
    #expect(text.contains("Family Free Month — Family: free for 1 month"))
    #expect(text.contains("3 Months for 1 — Premium: 11.99 USD up front for 3 months"))
  }
}
