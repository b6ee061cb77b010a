import DashModel
import DashRuntime
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberStorage
import CoreValues

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
