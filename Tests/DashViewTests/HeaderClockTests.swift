import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues

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

  /// Seconds rule: above 60× a minute of the clock holds more than an hour of subscription
  /// time, so the header clock shows seconds; at real time it stays to the minute.
  @Test func aFastRateShowsTheHeaderClockToTheSecond() {
    let clock = DashClock(simulated: grace.now + Span(ms: 7_000), wall: grace.wall)
    func header(_ timing: any RenewalTiming) -> String {
      let vm = ViewModel.derived(state: grace.state, notifications: [], fileName: "grace-period.json", clock: clock, timing: timing)
      return render(vm, UIState(), width: 80, height: 24).textDump
    }
    #expect(header(TimeRate.monthlyRenewalEveryFiveMinutes).contains("sim 2026-05-14 15:00:07 UTC"))
    #expect(header(TimeRate.oneRenewalEveryTwoSeconds).contains("sim 2026-05-14 15:00:07 UTC"))
    #expect(header(TimeRate.realTime).contains("sim 2026-05-14 15:00 UTC"))
    #expect(header(TimeRate.thirtyMinutesIsOneDay).contains("sim 2026-05-14 15:00 UTC"))  // 48x
  }

  /// The threshold is 60x: a day lasting 24 minutes is exactly 60x (minutes stay), 1 ms shorter is over.
  @Test func sixtyTimesIsTheThresholdToTheMillisecond() {
    func rate(day ms: Double) -> RateSchedule {
      RateSchedule(renewal: .scaledDay(Span(ms: ms)), graceWeekly: .minute, graceOther: .minute, billingRetry: .hour, renewalCap: nil)
    }
    #expect(!rate(day: 1_440_000).clockShowsSeconds)
    #expect(!rate(day: 1_440_001).clockShowsSeconds)
    #expect(rate(day: 1_439_999).clockShowsSeconds)
    #expect(TimeRate.fiveMinutesIsOneDay.schedule.clockShowsSeconds)
    #expect(!TimeRate.oneHourIsOneDay.schedule.clockShowsSeconds)
  }

  /// The header shows the rate and failures armed for coming renewals (f, --fail-renewals), and
  /// `?` lists every setting, so a renewal failing is no surprise; at real time with nothing
  /// armed the row stays empty.
  @Test func rateAndArmedFailuresAreVisible() throws {
    let armed = try Simulator.configure(grace.state) {
      $0.timeRate = "monthlyRenewalEveryFiveMinutes"
      $0.failRenewals = true
      $0.renewalOutcomes = [.fail]
    }.get().state
    let vm = ViewModel.derived(state: armed, notifications: [], fileName: "grace-period.json", clock: grace.clock,
                               timing: TimeRate.monthlyRenewalEveryFiveMinutes)
    let header = render(vm, UIState(), width: 150, height: 40).lines[1]
    #expect(header.contains("rate 8640x  armed: next renewal fails, every renewal fails (S: off)"), "\(header)")
    let help = Overlays.helpLines(vm, UIState(), ascii: false).map(\.text)
    #expect(help.contains("Simulation settings"))
    #expect(help.contains { $0.hasPrefix("rate") && $0.contains("monthlyRenewalEveryFiveMinutes, 8640x") }, "\(help)")
    #expect(help.contains { $0.hasPrefix("armed") && $0.contains("next renewal fails, every renewal fails") }, "\(help)")

    let quiet = render(grace.viewModel(), UIState(), width: 150, height: 40).lines[1]
    #expect(!quiet.contains("armed"))
    #expect(!quiet.contains("rate "))
  }

  /// A running `subdash simulate` stamps `simulation.runner`; the header believes a stamp younger
  /// than 3 s (to the millisecond) and the screen wakes when it would go stale.
  @Test func aFreshHeartbeatShowsSimulateRunning() {
    func vm(beatAgo: Span) -> ViewModel {
      var s = grace.state
      SimulatorHeartbeat.write(SimulatorHeartbeat(pid: 4242, beat: grace.wall - beatAgo), into: &s)
      return ViewModel.derived(state: s, notifications: [], fileName: "grace-period.json", clock: grace.clock)
    }
    let fresh = vm(beatAgo: SimulatorHeartbeat.staleAfter - .millisecond)
    #expect(render(fresh, UIState(), width: 150, height: 40).lines[1].contains("simulate running"))
    #expect(ScreenTimer.msUntilChange(fresh, UIState(), wall: grace.wall) == 1)
    let stale = vm(beatAgo: SimulatorHeartbeat.staleAfter)
    #expect(!render(stale, UIState(), width: 150, height: 40).lines[1].contains("simulate running"))
    #expect(!render(grace.viewModel(), UIState(), width: 150, height: 40).lines[1].contains("simulate running"))
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
