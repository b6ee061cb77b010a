import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C (SIGINT) and SIGTERM during long work that writes files (`simulate --population`,
/// `subdash --demo-population`, the first index build of `subdash list DIR`). Both are blocked
/// while the work runs and looked for between two of its steps, so the process is never killed
/// by the signal half way through a file (it was: 194 of 300 files, or an index's `-wal` and
/// `-shm`, left behind, issue 37 §4); the caller then removes what the stopped work made.
package final class InterruptCheck: @unchecked Sendable {
  private var previous = sigset_t()
  private let caught = Mutex<Int32?>(nil)

  /// Blocks SIGINT and SIGTERM in this thread; threads made from now on (the workers) inherit
  /// that, and libdispatch's own workers block every asynchronous signal.
  package init() {
    var set = Self.signals()
    pthread_sigmask(SIG_BLOCK, &set, &previous)
  }

  private static func signals() -> sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    return set
  }

  /// The stop signal once one has arrived, else nil. Any thread may ask: a pending signal is
  /// taken (it is blocked everywhere, so it waits for us) and remembered.
  package var signal: Int32? {
    caught.withLock { caught in
      guard caught == nil else { return caught }
      var pending = sigset_t()
      sigpending(&pending)
      for s in [SIGINT, SIGTERM] where sigismember(&pending, s) == 1 {
        var one = sigset_t()
        sigemptyset(&one)
        sigaddset(&one, s)
        var got: Int32 = 0
        if sigwait(&one, &got) == 0 {
          caught = got
          break
        }
      }
      return caught
    }
  }

  package var stopped: Bool { signal != nil }

  /// The work finished: the signals act as before (a list that follows handles its own).
  package func finish() {
    pthread_sigmask(SIG_SETMASK, &previous, nil)
  }

  /// The shell's convention for a process stopped by a signal: 130 for Ctrl-C, 143 for SIGTERM.
  package static func exitStatus(_ signal: Int32) -> Int32 { 128 + signal }

  package static func name(_ signal: Int32) -> String { signal == SIGINT ? "Ctrl-C" : "SIGTERM" }
}
