import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView

/// Each win-back offer names the product it subscribes to (Apple offers those of the customer's
/// most recent subscription: a lapsed Premium subscriber sees Premium's offers only).
@Suite struct WinBackTitleTests {
  @Test func everyOfferNamesTheProductItSubscribesTo() {
    let text = PlainReport.lines(Scenarios.example("expired-voluntary").viewModel()).joined(separator: "\n")
    #expect(!text.contains("Family Free Month"))
    #expect(text.contains("3 Months for 1 — Premium: 11.99 USD up front for 3 months"))
  }
}

/// A file in the App Store Server API's shape (latest transaction and renewal info only): the
/// panel says the list is Apple's and keeps Apple's order, naming offers it has no terms for.
@Suite struct WinBackApplesListTests {
  @Test func thePanelShowsApplesListInApplesOrder() {
    let text = PlainReport.lines(Scenarios.example("server-api-latest-only").viewModel()).joined(separator: "\n")
    #expect(text.contains("""
      Apple's list, best first (history incomplete)
      1. Half Price for 3 Months — Premium: 5.99 USD / 1 month for 3 periods
      2. 3 Months for 1 — Premium: 11.99 USD up front for 3 months  high priority
      3. premium_winback_spring  not in the catalog
      """))
  }
}
