import DashRuntime
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C and SIGTERM for `subdash simulate`, without a signal handler: both are blocked, and the
/// simulator's waits are `sigtimedwait` calls that return early when one arrives. A stop is
/// therefore only ever noticed between two `StateFile.update` calls, so the file is always whole.
struct SimStopSignals {
  private var set = sigset_t()
  private(set) var stopped = false

  /// Blocks SIGINT and SIGTERM for this thread. Call before any other thread exists.
  init() {
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    pthread_sigmask(SIG_BLOCK, &set, nil)
  }

  /// Waits up to `seconds` (wall clock); returns false as soon as a stop signal arrives.
  mutating func sleep(seconds: Double) -> Bool {
    if stopped { return false }
    #if canImport(Glibc)
    var remaining = max(0, seconds)
    repeat {
      var ts = timespec(tv_sec: Int(remaining.rounded(.down)), tv_nsec: Int((remaining - remaining.rounded(.down)) * 1e9))
      let start = SimMonotonic.seconds()
      var info = siginfo_t()
      let sig = sigtimedwait(&set, &info, &ts)
      if sig == SIGINT || sig == SIGTERM { stopped = true; return false }
      remaining -= SimMonotonic.seconds() - start
    } while remaining > 0.000_5
    #else
    var remaining = max(0, seconds)
    while remaining > 0 {
      var pending = sigset_t()
      sigpending(&pending)
      if sigismember(&pending, SIGINT) == 1 || sigismember(&pending, SIGTERM) == 1 { stopped = true; return false }
      let step = min(remaining, 0.05)
      usleep(useconds_t(step * 1e6))
      remaining -= step
    }
    #endif
    return true
  }

  /// True when a stop signal is pending; consumes it.
  mutating func check() -> Bool {
    if !stopped { _ = sleep(seconds: 0) }
    return stopped
  }
}

enum SimMonotonic {
  static func seconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }
}

enum SimWallClock {
  /// The real time, as an Instant. Only the CLI reads it (DashModel never does).
  static func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return (Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec / 1_000_000)).rounded(.down)
  }

  /// This process, for the heartbeat dashboards show (`SimulatorHeartbeat`).
  static var pid: Int { Int(getpid()) }
}
