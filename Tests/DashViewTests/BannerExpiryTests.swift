import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView

/// A billing expiry's expiresDate is the renewal that was never paid; support needs to know when
/// access really ended (grace) and when Apple gave up (billing retry), which the log records.
@Suite struct BannerExpiryTests {
  @Test func aBillingExpirySaysWhenGraceEndedAndRetriesStopped() {
    let text = PlainReport.lines(Scenarios.example("expired-billing").viewModel()).joined(separator: "\n")
    #expect(text.contains("EXPIRED  billing error: the paid period ended 2026-02-09 08:10 UTC (that renewal was never paid), access ended 2026-02-25 08:10 UTC when the grace period ran out, and Apple stopped retrying 2026-04-10 08:10 UTC"))
  }

  @Test func aVoluntaryExpiryKeepsItsDateAndReason() {
    let text = PlainReport.lines(Scenarios.example("expired-voluntary").viewModel()).joined(separator: "\n")
    #expect(text.contains("EXPIRED  on 2026-03-08 13:00 UTC: customer cancelled (auto-renew turned off)"))
  }
}
