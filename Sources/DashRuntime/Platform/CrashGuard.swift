#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Restores the terminal when the process dies from a fault, a trap, an abort or Ctrl-\ — including
/// Swift's `fatalError`, which is `ud2` (SIGILL) on x86_64 and `brk` (SIGTRAP) on arm64.
///
/// The handler runs the restore hook (endwin, set by `Terminal`), replays captured stderr so
/// the "Fatal error: ..." line is not lost, then puts back the previous action — normally the
/// Swift runtime's backtracer — and lets the crash happen again under it, so the backtrace and
/// the exit status (132 for SIGILL, 134 for SIGABRT, ...) stay exactly what they would have been.
package enum CrashGuard {
  package typealias Hook = @convention(c) () -> Void

  /// Faults and aborts, plus SIGQUIT (Ctrl-\), whose default action also kills the process
  /// without any cleanup and would leave the terminal raw.
  package static let signals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGQUIT]

  nonisolated(unsafe) private static var hook: Hook?
  nonisolated(unsafe) private static var installed = false
  // Indexed by signal number; a raw buffer because the handler must not touch Swift collections.
  nonisolated(unsafe) private static let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)

  /// Installs the handlers once (later calls only swap the hook). `hook` must be safe to call
  /// from a signal handler more or less: `endwin()` is the accepted exception.
  package static func install(restoreTerminal: Hook?) {
    hook = restoreTerminal
    guard !installed else { return }
    installed = true
    ensureAlternateSignalStack()
    for sig in signals {
      var action = sigaction()
      action.__sigaction_handler.sa_sigaction = { sig, info, context in CrashGuard.handle(sig, info, context) }
      action.sa_flags = SA_SIGINFO | SA_ONSTACK
      sigemptyset(&action.sa_mask)
      _ = sigaction(sig, &action, previous + Int(sig))
    }
    // A stray exit() (or an error thrown out of run()) while curses is up would skip
    // Terminal.restore(); atexit still runs, so restore there too. Both steps are idempotent.
    atexit {
      CrashGuard.runHook()
      StderrLog.restore()
    }
  }

  /// Called by `Terminal` when it ends curses normally, so a later crash doesn't call endwin again.
  package static func clearHook() { hook = nil }

  private static func runHook() {
    if let h = hook {
      hook = nil
      h()
    }
  }

  private static func handle(
    _ sig: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
  ) {
    runHook()
    StderrLog.restore()
    let code = info?.pointee.si_code ?? 0
    let isFault = code > 0 && (sig == SIGILL || sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE)
    if isFault {
      // Returning re-executes the faulting instruction, which faults again under the previous
      // handler (the backtracer) with the true crash context and its usual exit status.
      _ = sigaction(sig, previous + Int(sig), nil)
      return
    }
    // Anything else would not recur on return: kill/raise/abort (si_code <= 0), Ctrl-\, x86's
    // int3 (which resumes *after* the trap). Run the previous handler here for its report, but
    // do not trust it to end the process: the Swift backtracer *returns* from SIGQUIT and the
    // program would carry on with the terminal already given back. So then die the default way.
    callPrevious(sig, info, context)
    var dfl = sigaction()
    dfl.__sigaction_handler = unsafeBitCast(0, to: type(of: dfl.__sigaction_handler))  // SIG_DFL
    _ = sigaction(sig, &dfl, nil)
    _ = raise(sig)  // pending while this handler runs; delivered (fatal) on return
  }

  private static func callPrevious(
    _ sig: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
  ) {
    let old = previous[Int(sig)]
    let raw = unsafeBitCast(old.__sigaction_handler, to: Int.self)
    guard raw != 0, raw != 1 else { return }  // SIG_DFL, SIG_IGN: nothing to run
    if old.sa_flags & SA_SIGINFO != 0 {
      old.__sigaction_handler.sa_sigaction?(sig, info, context)
    } else {
      old.__sigaction_handler.sa_handler?(sig)
    }
  }

  /// A stack overflow is a SIGSEGV with no stack left to run the handler on. The Swift runtime
  /// usually installs an alternate stack; if it did not, give the main thread one.
  private static func ensureAlternateSignalStack() {
    var current = stack_t()
    guard sigaltstack(nil, &current) == 0, current.ss_flags & Int32(SS_DISABLE) != 0 else { return }
    let size = 64 * 1024
    var stack = stack_t()
    stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    stack.ss_size = size
    stack.ss_flags = 0
    _ = sigaltstack(&stack, nil)
  }
}
