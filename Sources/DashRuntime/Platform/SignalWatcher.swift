#if os(Linux)
import CNcurses  // only for signalfd(2), which the Glibc module does not import; no ncurses calls here
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns asynchronous signals into readable events on a file descriptor, so the one event loop
/// can `poll()` them next to the tty and never runs program code inside a signal handler.
///
/// Two ways, one interface (`fd` to poll, `drain()` to read):
/// - `.signalfd` (Linux): the signals are blocked and read from a signalfd. Must be created before
///   any thread exists: the mask is per thread and only inherited, so a thread started earlier
///   would still take the signal with its default action (death, for SIGTERM).
/// - `.selfPipe` (every POSIX system; the default where there is no signalfd): a handler writes
///   the signal's number into a pipe, the only thing it does (write(2) is async-signal-safe).
///   Tested on Linux too, so a port starts from a fallback that is known to work.
package final class SignalWatcher {
  /// What the dashboard watches:
  /// - INT/TERM/HUP end the program gracefully (the loop restores the terminal first);
  ///   ncurses does not handle SIGHUP at all, so without this a closed SSH link leaves a raw tty.
  /// - TSTP is Ctrl-Z: the loop suspends the terminal itself (endwin, SIGSTOP, repaint).
  /// - CONT repaints after any stop, including `kill -STOP` from outside.
  /// - WINCH: ncurses' own handler would set a flag that is only read inside get_wch, racing with
  ///   poll(); through the descriptor the resize wakes poll instead and cannot be lost.
  package static let dashboardSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGWINCH]

  package enum Mechanism: Sendable, Equatable {
    case signalfd, selfPipe
    /// signalfd where the system has it, the self-pipe elsewhere.
    package static var preferred: Mechanism {
      #if os(Linux)
      return .signalfd
      #else
      return .selfPipe
      #endif
    }
  }

  package enum Failure: Error, CustomStringConvertible {
    case mask(errno: Int32), signalfd(errno: Int32), pipe(errno: Int32), unsupported
    package var description: String {
      switch self {
      case .mask(let e): return "cannot block signals: \(String(cString: strerror(e)))"
      case .signalfd(let e): return "signalfd failed: \(String(cString: strerror(e)))"
      case .pipe(let e): return "cannot make the signal pipe: \(String(cString: strerror(e)))"
      case .unsupported: return "signalfd is not available on this system"
      }
    }
  }

  /// Readable (POLLIN) whenever a watched signal is pending.
  package let fd: Int32
  package let signals: [Int32]
  package let mechanism: Mechanism
  /// The self-pipe's write end (-1 with signalfd).
  private let pipeWriteEnd: Int32
  /// The mask before blocking. A child process inherits blocked signals across exec, so
  /// anything the app spawns (an editor, a pager) must get this mask back
  /// (posix_spawnattr_setsigmask), or Ctrl-C would not reach it.
  package private(set) var previousMask = sigset_t()

  package init(signals: [Int32] = SignalWatcher.dashboardSignals, mechanism: Mechanism = .preferred) throws {
    self.signals = signals
    self.mechanism = mechanism
    var mask = sigset_t()
    sigemptyset(&mask)
    for s in signals { sigaddset(&mask, s) }
    switch mechanism {
    case .signalfd:
      #if os(Linux)
      let rc = pthread_sigmask(SIG_BLOCK, &mask, &previousMask)
      guard rc == 0 else { throw Failure.mask(errno: rc) }
      let fd = signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
      guard fd >= 0 else {
        let e = errno
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        throw Failure.signalfd(errno: e)
      }
      self.fd = fd
      self.pipeWriteEnd = -1
      #else
      throw Failure.unsupported
      #endif
    case .selfPipe:
      // The handler must run, so the signals are unblocked here (a signalfd watcher made earlier
      // on this thread, or an inherited mask, may have blocked them).
      let rc = pthread_sigmask(SIG_UNBLOCK, &mask, &previousMask)
      guard rc == 0 else { throw Failure.mask(errno: rc) }
      (self.fd, self.pipeWriteEnd) = try SelfPipe.install(signals)
    }
  }

  /// Reads every pending signal, in arrival order, without blocking. Empty when none is pending.
  package func drain() -> [Int32] {
    switch mechanism {
    case .signalfd: return drainSignalfd()
    case .selfPipe: return SelfPipe.drain(fd)
    }
  }

  private func drainSignalfd() -> [Int32] {
    #if os(Linux)
    var out: [Int32] = []
    var info = signalfd_siginfo()
    let size = MemoryLayout<signalfd_siginfo>.size
    while true {
      let n = read(fd, &info, size)
      if n == size {
        out.append(Int32(bitPattern: info.ssi_signo))
      } else if n < 0 && errno == EINTR {
        continue
      } else {
        return out  // EAGAIN: nothing more pending
      }
    }
    #else
    return []
    #endif
  }

  /// signalfd: closes the descriptor but keeps the signals blocked; unblocking here would deliver
  /// a pending SIGINT/SIGTERM with its default action and kill the process mid-cleanup.
  /// Self-pipe: for the same reason the handlers stay; they find no pipe and do nothing.
  deinit {
    if mechanism == .selfPipe { SelfPipe.uninstall(signals, readEnd: fd, writeEnd: pipeWriteEnd) } else { close(fd) }
  }
}
