import Testing

@testable import DashModel
@testable import DashView
@testable import CoreValues
@testable import SimulationRuns

/// Issue 9, "Confusing text": what a support engineer reads must not hide seconds at fast
/// rates, mix up expiry dates, or repeat one refusal on every row.
@Suite struct ConfusingTextTests {
  func screen(_ s: Scenario) -> String { PlainReport.lines(s.viewModel()).joined(separator: "\n") }

  @Test func aGracePeriodSecondsAwayReadsToTheSecond() throws {
    var s = Scenarios.example("grace-period")
    let graceEnd = try Format.parseDate("2026-05-26T06:00:00Z")
    s.now = graceEnd - Span(ms: 5_000)
    s.wall = s.now
    let text = screen(s)
    #expect(text.contains("access kept for 5s, until 2026-05-26 06:00:00 UTC"))
  }

  @Test func aGracePeriodDaysAwayStaysToTheMinute() {
    #expect(screen(Scenarios.example("grace-period")).contains("until 2026-05-26 06:00 UTC"))
  }

  @Test func aBillingExpiryNamesEachOfItsThreeDates() {
    let text = screen(Scenarios.example("expired-billing"))
    #expect(text.contains(
      "EXPIRED  billing error: the paid period ended 2026-02-09 08:10 UTC (that renewal was never paid), access ended"
        + " 2026-02-25 08:10 UTC when the grace period ran out, and Apple stopped retrying 2026-04-10 08:10 UTC"))
    #expect(text.contains("not renewing: paid period ended 2026-02-09 08:10 UTC"))
  }

  @Test(arguments: ["expired-billing", "expired-voluntary", "expired-price-increase", "refunded"])
  func anInactiveSubscriptionSaysNoPlanChangeOnce(_ example: String) {
    let text = screen(Scenarios.example(example))
    #expect(text.components(separatedBy: "not active").count <= 2, "\(example) repeats the refusal")
    #expect(text.components(separatedBy: "no plan change:").count == 2, "\(example) has no single no-plan-change line")
  }
}

extension ConfusingTextTests {
  @Test func theRefundBannerNamesItsDateOnce() {
    let banner = screen(Scenarios.example("refunded")).split(separator: "\n").first { $0.contains("REFUNDED") } ?? ""
    #expect(banner.components(separatedBy: "2026-03-20").count == 2, "\(banner)")
  }
}
