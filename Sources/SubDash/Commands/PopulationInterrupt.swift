import DashModel
import DashRuntime
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C (SIGINT) and SIGTERM while a population is made or advanced (`simulate --population`,
/// `subdash --demo-population`). Both are blocked while the work runs and looked for between two
/// members, so the process is never killed by the signal half way through a file (it was: 194 of
/// 300 files left behind, issue 37 §4); the caller then removes what the stopped run made.
final class PopulationInterrupt: @unchecked Sendable {
  private var previous = sigset_t()
  private let caught = Mutex<Int32?>(nil)

  /// Blocks SIGINT and SIGTERM in this thread; threads made from now on (the workers) inherit
  /// that, and libdispatch's own workers block every asynchronous signal.
  init() {
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
  var signal: Int32? {
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

  var stopped: Bool { signal != nil }

  /// The work finished: the signals act as before (the list that follows handles its own).
  func finish() {
    pthread_sigmask(SIG_SETMASK, &previous, nil)
  }

  /// The shell's convention for a process stopped by a signal: 130 for Ctrl-C, 143 for SIGTERM.
  static func exitStatus(_ signal: Int32) -> Int32 { 128 + signal }

  static func name(_ signal: Int32) -> String { signal == SIGINT ? "Ctrl-C" : "SIGTERM" }
}

/// `subdash: making 120 of 300 subscribers…` on stderr while a population is made or advanced:
/// only when stderr is a terminal (a script's stderr gets nothing, as with `simulate`'s own
/// progress), only once the work has taken a second, redrawn in place at most five times a
/// second, and erased at the end so what follows starts on a clean line.
final class PopulationProgress: @unchecked Sendable {
  private struct State {
    var done = 0
    var lastDraw = 0.0
    var drawn = false
  }

  let verb: String
  let total: Int
  private let enabled: Bool
  private let started = SimMonotonic.seconds()
  private let state = Mutex(State())

  /// What Ctrl-C would do now, said on the line.
  let onStop: String

  init(_ verb: String, total: Int, onStop: String, enabled: Bool = isatty(2) != 0) {
    self.verb = verb
    self.total = total
    self.onStop = onStop
    self.enabled = enabled
  }

  static func line(_ verb: String, done: Int, total: Int, onStop: String) -> String {
    "subdash: \(verb) \(done) of \(counted(total, "subscriber"))… (Ctrl-C \(onStop))"
  }

  /// Members done so far.
  var done: Int { state.withLock { $0.done } }

  /// One more member done (from any worker).
  func step() {
    state.withLock { s in
      s.done += 1
      guard enabled else { return }
      let now = SimMonotonic.seconds()
      guard now - started >= 1, now - s.lastDraw >= 0.2 else { return }
      s.lastDraw = now
      s.drawn = true
      LineOut.stderrText("\r\u{1B}[K" + Self.line(verb, done: s.done, total: total, onStop: onStop))
    }
  }

  func clear() {
    state.withLock { s in
      guard s.drawn else { return }
      s.drawn = false
      LineOut.stderrText("\r\u{1B}[K")
    }
  }
}

/// The directory's entries before a run, so a stopped run removes exactly what it added (the
/// members' state files and journals, the directory lock) and nothing the user had there.
struct DirectoryBefore {
  let path: String
  let existed: Bool
  let names: Set<String>

  init(_ path: String) {
    self.path = path
    var names = Set<String>()
    var existed = false
    if let d = opendir(path) {
      existed = true
      while let entry = readdir(d) { names.insert(DirectoryEntry.name(entry)) }
      closedir(d)
    }
    self.existed = existed
    self.names = names
  }

  /// Unlinks every entry the run added (one level: a population writes nothing deeper), then
  /// the directory itself when the run made it.
  func removeAdded() {
    if let d = opendir(path) {
      var added: [String] = []
      while let entry = readdir(d) {
        let name = DirectoryEntry.name(entry)
        if name != "." && name != ".." && !names.contains(name) { added.append(name) }
      }
      closedir(d)
      for name in added { unlink(path + "/" + name) }
    }
    if !existed { rmdir(path) }
  }
}
