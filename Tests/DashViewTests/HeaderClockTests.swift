import Testing
@testable import DashModel
@testable import DashView

/// `--now` views the file at a fixed moment: the report is derived at that moment and the header
/// says so ("at …"), instead of silently showing the file's own clock or the wall.
@Suite struct HeaderClockTests {
  let grace = Scenarios.grace
  /// gracePeriodExpiresDate of Examples/grace-period.json.
  let graceEnds = Instant(ms: 1_779_775_200_000)

  func screen(viewingAt: Instant?) -> String {
    let clock = DashClock(simulated: grace.now, wall: grace.wall, viewingAt: viewingAt)
    return render(grace.viewModel(clock: clock), UIState(), width: 80, height: 24).textDump
  }

  @Test func withoutNowTheSimulatedClockIsShown() {
    let text = screen(viewingAt: nil)
    #expect(text.contains("sim 2026-05-14 15:00 UTC"))
    #expect(text.contains("GRACE PERIOD"))
  }

  @Test func oneMillisecondBeforeGraceEndsItIsStillGrace() {
    let text = screen(viewingAt: graceEnds - Span(ms: 1))
    #expect(text.contains("at 2026-05-26 05:59 UTC"))
    #expect(text.contains("GRACE PERIOD"))
    #expect(!text.contains("sim 2026-05-14"))
  }

  @Test func atTheMomentGraceEndsItIsBillingRetry() {
    let text = screen(viewingAt: graceEnds)
    #expect(text.contains("at 2026-05-26 06:00 UTC"))
    #expect(!text.contains("wall "), "a wall clock beside a fixed moment would wake an idle dashboard")
    #expect(text.contains("BILLING RETRY"))
    #expect(!text.contains("GRACE PERIOD"))
  }

  /// `subdash show --now`: the text report is derived at that moment and says so.
  @Test func plainReportIsViewedAtTheGivenMoment() {
    let clock = DashClock(simulated: grace.now, wall: grace.wall, viewingAt: graceEnds)
    let lines = PlainReport.lines(grace.viewModel(clock: clock))
    #expect(lines[2] == "clock: viewed at 2026-05-26 06:00 UTC (--now); wall 2026-05-14 15:07 UTC")
    #expect(lines.contains { $0.hasPrefix("✖ BILLING RETRY") })
    #expect(!lines.contains { $0.contains("GRACE PERIOD") })
  }
}
