import DashModel
import CoreValues

/// When the screen would change by itself, so the runtime wakes only then: a highlight fading,
/// and in a live view (wall clock, no `--now`) the next second of a countdown under an hour or
/// else the header's next minute. Pure: the deadlines come from the report and the UI state.
public enum ScreenTimer {
  /// Milliseconds from `wall` until the next change, or nil when nothing on screen moves (a
  /// simulated clock or `--now` fixes the moment; then only highlights fade). `vm` is the model
  /// last drawn: its report is not derived again for every wake-up.
  public static func msUntilChange(_ vm: ViewModel, _ ui: UIState, wall: Instant) -> Int32? {
    var deadlines: [Span] = []
    if let fade = ui.highlights.nextExpiry(after: wall) { deadlines.append(fade - wall) }
    // "simulate running" goes when the simulator's stamp goes stale (killed without removing it).
    if let beat = vm.simulatorRunning?.beat { deadlines.append(beat + SimulatorHeartbeat.staleAfter - wall) }
    if vm.clock.simulated == nil && vm.clock.viewingAt == nil {
      let now = wall
      // Countdowns show seconds under an hour; otherwise the header's "now" shows minutes, and
      // every rule of the report (grace, retry, win-back windows) is re-derived at least that often.
      let soonSeconds = vm.report.countdownTargets.contains { $0 > now && $0 - now < .hours(1) }
      let step: Double = soonSeconds ? 1000 : 60_000
      deadlines.append(Span(ms: step - now.ms.truncatingRemainder(dividingBy: step) + 1))
    }
    guard let soonest = deadlines.min() else { return nil }
    return Int32(max(1, min(soonest.ms, 3_600_000)))
  }
}

extension LifecycleReport {
  /// The instants the screen counts down to: the renewal or expiry, the grace end, the end of
  /// billing retry and an Ask to Buy request's lapse.
  public var countdownTargets: [Instant] {
    var targets: [Instant] = []
    switch renewal {
    case .renews(let d, _, _, _), .expiresAutoRenewOff(let d), .switches(let d, _), .awaitsPriceConsent(let d, _): targets.append(d)
    case .none: break
    }
    if let g = grace { targets.append(g.expiresDate) }
    if let b = billingRetry { targets.append(b.retryUntil) }
    if let a = askToBuy { targets.append(a.lapseDate) }
    return targets
  }
}
