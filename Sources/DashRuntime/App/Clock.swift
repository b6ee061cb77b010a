import DashModel
import FoundationEssentials
import CoreValues

/// The only place SubDash reads the wall clock. The model takes `now` as an argument; this decides
/// which `now`: `--now`, else the file's simulated clock, else the wall clock.
package enum WallClock {
  package static func now() -> Instant { Instant(ms: (Date().timeIntervalSince1970 * 1000).rounded()) }

  /// The moment to view `state` at, and whether it is a simulated clock.
  package static func viewingTime(for state: SubscriptionState, override: Instant?, wall: Instant) -> (now: Instant, simulated: Bool) {
    if let override { return (override, false) }
    if let simulated = (try? Simulator.settings(state))?.now { return (simulated, true) }
    return (wall, false)
  }
}
