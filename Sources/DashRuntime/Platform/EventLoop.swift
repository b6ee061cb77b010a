import DashModel
import DashView
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberStorage

/// What woke the loop, in the order handled within one wakeup: signals, resize, keys, file, tick.
package enum LoopEvent: Equatable {
  case key(Key)
  /// Subscribers the store's follow reported written or removed (never empty).
  case followed([SubscriberEvent])
  /// SIGINT, SIGTERM, SIGHUP (or any other watched signal the loop does not handle itself).
  case signal(Int32)
  /// The timeout returned by `nextTimeout` has elapsed.
  case tick
  /// The screen size changed, or the terminal came back from Ctrl-Z: render a new frame.
  case resize
  /// The tty hung up or became invalid. No more keys will arrive; the app should stop.
  case ttyClosed
}

extension LoopEvent {
  /// The exit status an event that ends the session asks for, as a shell reports a process killed
  /// by that signal (128 + number; a hung-up tty as SIGHUP); nil for events the app handles.
  package var endingStatus: Int32? {
    switch self {
    case .signal(let sig): return 128 + sig
    case .ttyClosed: return 128 + SIGHUP
    case .key, .followed, .tick, .resize: return nil
    }
  }
}

package enum LoopControl { case `continue`, stop }

/// The parts of `Terminal` the loop drives; a protocol so the loop can be tested with a pipe.
package protocol LoopTerminal: AnyObject {
  func readKey() -> Key?
  /// Re-reads the window size after SIGWINCH; true if it changed.
  func updateSize() -> Bool
  /// Ctrl-Z: give the tty back, stop the process, repaint when continued.
  func suspend()
  /// Repaint everything (after an outside SIGSTOP/SIGCONT).
  func redrawAll()
}

extension Terminal: LoopTerminal {}

/// The program's only loop: blocks in poll() on the tty, the store's follow and the signalfd, on
/// the main thread. Nothing runs between events, so an idle dashboard costs no CPU and no
/// wakeups unless the caller asks for a timeout.
///
///     loop.run(nextTimeout: { state.msUntilNextDeadline }) { event in
///       ...; return .continue   // or .stop
///     }
package final class EventLoop {
  private let terminal: LoopTerminal
  private let ttyFD: Int32
  private let signals: SignalWatcher?
  private let follower: DirectoryFollower?
  // The state of one `run`:
  /// Cleared when the tty hangs up: polling it then would return at once forever.
  private var ttyOpen = true
  /// When stat polling looks next (no inotify descriptor to wait on).
  private var nextStatCheck: Int64?
  /// Our own Ctrl-Z resume already repainted; the SIGCONT that follows it must not again.
  private var ignoreNextContinue = false

  package init(terminal: LoopTerminal, signals: SignalWatcher?, follower: DirectoryFollower?, ttyFD: Int32 = 0) {
    self.terminal = terminal
    self.signals = signals
    self.follower = follower
    self.ttyFD = ttyFD
  }

  /// Runs until `handle` returns `.stop`. Within one wakeup: signals, resize, keys, file, tick.
  /// - Parameter nextTimeout: asked before every wait: milliseconds until the caller wants a
  ///   `.tick` (nil = no tick; 0 = at once). Lets the caller implement clocks and debouncing
  ///   without the loop waking up when there is nothing to do.
  package func run(nextTimeout: () -> Int32? = { nil }, _ handle: (LoopEvent) -> LoopControl) {
    // Each run starts afresh: a SIGCONT after an earlier run's Ctrl-Z is a repaint again.
    ttyOpen = true
    nextStatCheck = nil
    ignoreNextContinue = false
    while true {
      let (timeout, deadline) = plannedWait(nextTimeout())
      let ready = waitForEvents(timeout)
      // Signals first, so SIGTERM wins over a flood of keys.
      guard let resized = signalsAndResize(ready, handle) else { return }
      guard keys(ready, resizeHandled: resized, handle), fileChange(ready, handle) else { return }
      if let deadline, Monotonic.nowMs() >= deadline, handle(.tick) == .stop { return }
    }
  }

  /// What poll() reported, by source.
  private struct Ready {
    var signals = false
    var ttyHungUp = false
    var watcher = false
  }

  /// How long to wait (poll's milliseconds, -1 for ever) and when the caller's tick is due.
  private func plannedWait(_ requested: Int32?) -> (timeout: Int32, deadline: Int64?) {
    let requested = requested.map { max(0, $0) }
    let started = Monotonic.nowMs()
    var timeout: Int32 = requested ?? -1
    // Stat polling has no descriptor to wait on, so it bounds the wait instead.
    if let follower, follower.descriptor == nil {
      let due = nextStatCheck ?? started + Int64(follower.pollIntervalMs)
      nextStatCheck = due
      let wait = Int32(clamping: max(0, due - started))
      timeout = timeout < 0 ? wait : min(timeout, wait)
    } else {
      nextStatCheck = nil
    }
    return (timeout, requested.map { started + Int64($0) })
  }

  private func waitForEvents(_ timeout: Int32) -> Ready {
    var fds: [pollfd] = []
    let ttyIndex = ttyOpen ? append(&fds, ttyFD) : nil
    let signalIndex = signals.map { append(&fds, $0.fd) }
    let watchIndex = follower?.descriptor.map { append(&fds, $0) }
    let rc = poll(&fds, nfds_t(fds.count), timeout)
    // EINTR (a signal not routed through signalfd) is just a wakeup: fall through and drain.
    if rc < 0 && errno != EINTR && errno != EAGAIN && errno != ENOMEM {
      preconditionFailure("poll failed: errno \(errno)")
    }
    let interrupted = rc < 0
    func ready(_ index: Int?) -> Bool {
      guard let index else { return false }
      return interrupted || fds[index].revents != 0
    }
    var out = Ready(signals: ready(signalIndex), watcher: ready(watchIndex))
    if let ttyIndex { out.ttyHungUp = fds[ttyIndex].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 }
    return out
  }

  /// Signals: window changes and Ctrl-Z/continue are the loop's own; others go to `handle`.
  /// Returns whether a resize was reported, or nil when `handle` stopped the loop.
  private func signalsAndResize(_ ready: Ready, _ handle: (LoopEvent) -> LoopControl) -> Bool? {
    var resized = false
    if let signals, ready.signals {
      for sig in signals.drain() {
        switch sig {
        case SIGWINCH:
          if terminal.updateSize() { resized = true }
        case SIGTSTP:
          terminal.suspend()
          ignoreNextContinue = true  // our own resume already repainted
          resized = true             // the size may have changed while stopped
        case SIGCONT:
          if ignoreNextContinue {
            ignoreNextContinue = false
          } else {
            _ = terminal.updateSize()
            terminal.redrawAll()
            resized = true
          }
        default:
          if handle(.signal(sig)) == .stop { return nil }
        }
      }
    }
    if resized, handle(.resize) == .stop { return nil }
    return resized
  }

  /// Keys: always drained, even when poll did not flag the tty, because ncurses may hold bytes
  /// it already read (the rest of an escape sequence, a KEY_RESIZE it queued). False: stop.
  private func keys(_ ready: Ready, resizeHandled: Bool, _ handle: (LoopEvent) -> LoopControl) -> Bool {
    guard ttyOpen else { return true }
    var sawResize = resizeHandled
    while let key = terminal.readKey() {
      if key == .resize {
        if !sawResize, handle(.resize) == .stop { return false }
        sawResize = true
      } else if handle(.key(key)) == .stop {
        return false
      }
    }
    if ready.ttyHungUp {
      ttyOpen = false
      if handle(.ttyClosed) == .stop { return false }
    }
    return true
  }

  /// The store's follow: taken when its descriptor is readable, else when its poll is due. False: stop.
  private func fileChange(_ ready: Ready, _ handle: (LoopEvent) -> LoopControl) -> Bool {
    guard let follower else { return true }
    let now = Monotonic.nowMs()
    let due: Bool
    if follower.descriptor != nil {
      due = ready.watcher
    } else if let at = nextStatCheck, now >= at {
      nextStatCheck = now + Int64(follower.pollIntervalMs)
      due = true
    } else {
      due = false
    }
    guard due else { return true }
    let events = follower.take()
    return events.isEmpty || handle(.followed(events)) != .stop
  }

  private func append(_ fds: inout [pollfd], _ fd: Int32) -> Int {
    fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
    return fds.count - 1
  }
}

/// Milliseconds on the monotonic clock: immune to wall-clock jumps (NTP, manual changes).
package enum Monotonic {
  package static func nowMs() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
  }
}
