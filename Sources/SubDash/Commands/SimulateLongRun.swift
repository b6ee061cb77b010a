#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import DashModel
import DashRuntime
import CoreValues
import SubscriberStorage

/// `subdash simulate --until DATE` applies every event up to DATE; at a fast rate that can be
/// thousands (a day at 86,400× is 2,880 renewals), each written, printed and, with --deliver,
/// POSTed. Such a run asks first, as the dashboard's `+` does: beyond `--max-events` (default
/// `LongStep.confirmAbove`) it is refused before anything is written, saying how many it would be.
enum SimulateLongRun {
  /// Counts the events up to `until` in memory (up to `maxEvents + 1`) and refuses a longer run.
  /// `steps` bounds the run when given. Returns normally when the run may go ahead.
  /// `settings`: the command line's (--rate …), applied to the file's in memory first.
  static func check(path: String, settings: [(key: String, value: JSON)], until: Instant, steps: Int?, maxEvents: Int?, opening: Instant) throws {
    let limit = maxEvents ?? LongStep.confirmAbove
    if let steps, steps <= limit { return }
    var state: SubscriptionState
    do { state = try StateFile.load(path: path) } catch { return }  // the run itself reports it
    if !settings.isEmpty {
      guard case .success(let set) = Simulator.setSettings(state, settings) else { return }
      state = set.state
    }
    guard let clock = try? Simulator.clock(state, opening: opening), until > clock,
          let size = try? Simulator.size(until: until, state, opening: opening, limit: limit),
          !size.complete else { return }
    LineOut.stderr("subdash: --until \(SimulateClock.when(until)) would apply more than \(counted(limit, "event")) (about \(size.estimate) at this file's rate); nothing was written. Give --max-events \(size.estimate + size.estimate / 10) (or more) to run it, or an earlier --until")
    throw ExitCode(1)
  }
}

/// A progress line on stderr while `simulate` jumps from event to event: shown only when stderr
/// is a terminal and stdout is not (the notification lines are the feedback when both are the
/// screen), redrawn in place at most five times a second and cleared at the end.
struct SimulateProgress {
  let enabled: Bool
  private var lastDraw = 0.0
  private var drawn = false

  init(enabled: Bool = isatty(2) != 0 && isatty(1) == 0) { self.enabled = enabled }

  static func line(events: Int, notifications: Int, clock: Instant?) -> String {
    "subdash simulate: \(counted(events, "event")), \(counted(notifications, "notification"))" + (clock.map { ", clock \(SimulateClock.when($0))" } ?? "")
  }

  mutating func tick(events: Int, notifications: Int, clock: Instant?) {
    guard enabled else { return }
    let now = SimMonotonic.seconds()
    guard now - lastDraw >= 0.2 else { return }
    lastDraw = now
    drawn = true
    LineOut.stderrText("\r\u{1B}[K" + Self.line(events: events, notifications: notifications, clock: clock))
  }

  mutating func clear() {
    guard drawn else { return }
    drawn = false
    LineOut.stderrText("\r\u{1B}[K")
  }
}
