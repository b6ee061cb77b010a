import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView
@testable import SimulationRuns

/// The plan line shows what the customer pays; the events title counts the whole log.
@Suite struct PlanPriceTests {
  func planLine(_ s: Scenario) -> String {
    render(s.viewModel(), UIState(), width: 120, height: 40).lines.first { $0.contains(" · purchased · ") } ?? ""
  }

  /// After an accepted price increase renews at 8.99, the plan line says 8.99 and names the
  /// catalog's 7.99 beside it.
  @Test func anAcceptedPriceIncreaseShowsThePaidPrice() {
    let s = Scenarios.active.with { $0.subscriber.latestTransaction?.price = 8990 }
    #expect(planLine(s).hasPrefix("8.99 USD / 1 month paid (catalog 7.99 USD) · purchased"))
  }

  @Test func theCatalogPriceAloneWhenThatIsWhatWasPaid() {
    #expect(planLine(Scenarios.active).hasPrefix("7.99 USD / 1 month · purchased"))
  }

  @Test func anOfferPriceIsThePaidPrice() {
    #expect(planLine(Scenarios.example("offer-in-effect")).hasPrefix("5.99 USD / 1 month paid (catalog 11.99 USD)"))
  }

  /// A pay-up-front offer code charges once for its whole period: 14.99 for 3 months, not "a month".
  @Test func aPayUpFrontPriceCoversTheOfferPeriod() {
    let s = Scenarios.active.with {
      $0.subscriber.latestTransaction?.price = 14990
      $0.subscriber.latestTransaction?.offerType = .offerCode
      $0.subscriber.latestTransaction?.offerDiscountType = .payUpFront
      $0.subscriber.latestTransaction?.offerPeriod = "P3M"
    }
    #expect(planLine(s).hasPrefix("14.99 USD / 3 months paid (catalog 7.99 USD / 1 month) · purchased"), "\(planLine(s))")
  }
}

@Suite struct EventCountTests {
  func vm(listing: Int) -> ViewModel {
    let s = Scenarios.active
    return ViewModel.derived(state: s.state, notifications: Array(s.state.subscriber.notifications.reversed().prefix(listing)),
                             fileName: "active.json", clock: s.clock)
  }

  /// `show --events 3`: the header counts all five, and says three are listed.
  @Test func fewerListedStillCountsTheWholeLog() {
    let lines = PlainReport.lines(vm(listing: 3))
    #expect(lines.contains("== Recent events (5, newest 3) =="))
  }

  /// `show --events 0` does not claim there are no notifications.
  @Test func noneListedIsNotNoneAtAll() {
    let lines = PlainReport.lines(vm(listing: 0))
    #expect(lines.contains("== Recent events (5) =="))
    #expect(!lines.contains("no notifications yet"))
    #expect(lines.contains("none listed (5 in the log; --events 0 asked for none)"))
  }

  @Test func allListedIsTheCount() {
    #expect(PlainReport.lines(vm(listing: 5)).contains("== Recent events (5) =="))
  }
}
