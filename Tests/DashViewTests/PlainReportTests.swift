import Testing
@testable import DashModel
@testable import DashView

/// `subdash show`: the renewal line must not promise a renewal "in 0s" once its date has passed.
@Suite struct PlainReportTests {
  func renewalLine(_ s: Scenario) -> String? {
    PlainReport.lines(state: s.state, report: s.report, events: [], fileName: "\(s.name).json", simulated: true, wallNow: s.wall)
      .first { $0.hasPrefix("Renewal ") }
  }

  @Test func activeRenewalIsAheadWithACountdown() {
    #expect(renewalLine(Scenarios.active) == "Renewal      renews on 2026-05-23 18:32 UTC (in 9d 03h) as Family at 7.99 USD")
  }

  /// In grace the renewal of 2026-05-10 06:00 has not been paid: say so, like the dashboard.
  @Test func inGraceTheRenewalIsDueNotAhead() {
    #expect(renewalLine(Scenarios.grace)
      == "Renewal      renewal due 2026-05-10 06:00 UTC not paid yet; Apple is retrying as Family at 7.99 USD")
  }

  /// The boundary, on the grace subscriber's clock moved back: 1 ms before expiresDate the
  /// renewal is still ahead; at expiresDate (payment failed, grace) it is due.
  @Test func theRenewalDateItselfIsDue() throws {
    let grace = Scenarios.grace
    let renewal = try #require(grace.state.subscriber.latestTransaction?.expiresDate)
    let before = grace.with(elapsed: renewal - grace.now - Span(ms: 1))
    #expect(renewalLine(before)?.contains("renews on 2026-05-10 06:00 UTC (in 1s)") == true)
    let at = grace.with(elapsed: renewal - grace.now)
    #expect(renewalLine(at)?.contains("renewal due 2026-05-10 06:00 UTC not paid yet") == true)
  }
}
