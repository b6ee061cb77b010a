import DashModel
import DashRuntime
import ArgumentParser
import DashView
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberStorage

/// `subdash terminal-check FILE`: a support diagnostic that exercises the terminal layer the
/// dashboard uses (drawing, keys, resize, file watching, signals, crash restore) without any
/// dashboard logic, so "does my terminal work over this SSH link?" has a quick answer.
struct TerminalCheck: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "terminal-check",
    abstract: "Check that this terminal works with SubDash (a diagnostic).",
    discussion: """
      Opens the terminal exactly as the dashboard does and shows what it found: terminal type \
      (TERM), size, colours, UTF-8, and how FILE is watched (inotify or polling). Press keys to \
      see how they arrive; change FILE to see "reloaded N" count up. Resize the window to see \
      it redraw. Nothing is written anywhere.

      Keys: q quits; Ctrl-L repaints; Ctrl-Z suspends (fg resumes); ! crashes on purpose (only \
      with --crash, to check that a crash leaves a usable terminal and prints its error).

      Exit status: 0 after q; 128+N when ended by signal N (130 Ctrl-C, 143 SIGTERM, 129 \
      hangup or closed terminal); 1 when the terminal cannot be used (not a terminal, unknown \
      TERM), with the reason on stderr.

      Environment: NO_COLOR (any value) disables colour, like --no-color; SUBDASH_NO_INOTIFY=1 \
      forces stat polling; TERM and LANG/LC_ALL/LC_CTYPE select the terminal type and charset. \
      A non-UTF-8 locale switches to ASCII drawing automatically.
      """,
    shouldDisplay: false
  )

  @Argument(help: "A file to show and watch, e.g. the state file.")
  var file: String

  @Flag(help: "Show a once-per-second countdown, to check that timers wake the program.")
  var tick = false

  @Flag(help: "Let the ! key crash the program on purpose, to check crash recovery.")
  var crash = false

  @Flag(help: "Draw without colour (bold, reverse and dim are kept).")
  var noColor = false

  @Flag(help: "Draw boxes with ASCII characters instead of Unicode line drawing.")
  var ascii = false

  func run() throws {
    // Before anything can start a thread: the blocked mask is inherited, not shared.
    let signals = try SignalWatcher()
    let unicode = Terminal.localeIsUTF8() && !ascii
    let colorWanted = !noColor && (getenv("NO_COLOR").map { $0.pointee == 0 } ?? true)

    // A StartError propagates to ArgumentParser, which prints "Error: <reason>" and exits 1.
    let terminal = try Terminal.start(options: .init(color: colorWanted))
    defer { terminal.restore() }

    let watcher = FileWatcher(path: file)
    // Made with its watch, before the first frame: a write the moment the frame shows is after both.
    let (store, name) = DirectorySubscriberStore.holding(file)
    let follower = store.follower(watch: watcher, only: name)
    var state = CheckState(file: file, tickEnabled: tick, crashEnabled: crash, unicode: unicode)
    state.firstLine = FirstLine.read(file)
    state.watchMode = watcher.mode == .inotify ? "inotify" : "polling every \(watcher.pollIntervalMs) ms"
    state.terminalInfo = describe(terminal)
    state.nextSecond = Monotonic.nowMs() + 1000

    var exitCode: Int32 = 0
    terminal.draw(state.render(size: terminal.size))
    EventLoop(terminal: terminal, signals: signals, follower: follower).run(nextTimeout: {
      state.msUntilNextDeadline(now: Monotonic.nowMs())
    }) { event in
      let now = Monotonic.nowMs()
      if let status = event.endingStatus {
        exitCode = status
        return .stop
      }
      switch event {
      case .key(.char("q")):
        return .stop
      case .key(.char("!")) where crash:
        // No restore() first, on purpose: this checks that CrashGuard alone brings the terminal
        // back and that the "Fatal error" line reaches the user.
        fatalError("terminal-check: deliberate crash requested with --crash")
      case .key(let key):
        state.lastKey = key.description
      case .followed:
        state.reloadDue = now + CheckState.debounceMs  // writers come in bursts; reload once
      case .signal, .ttyClosed:
        return .stop  // answered by endingStatus above
      case .resize:
        state.terminalInfo = describe(terminal)
      case .tick:
        break  // deadlines are handled by advance(now:) below
      }
      state.advance(now: now)
      terminal.draw(state.render(size: terminal.size))
      return .continue
    }
    terminal.restore()
    if exitCode != 0 { throw ExitCode(exitCode) }
  }

  private func describe(_ terminal: Terminal) -> String {
    let (w, h) = terminal.size
    let colors = terminal.colorEnabled ? "\(terminal.colorCount) colours" : "no colour"
    return "\(terminal.termName) \(w)x\(h), \(colors), \(terminal.utf8Output ? "UTF-8" : "not UTF-8")"
  }
}
