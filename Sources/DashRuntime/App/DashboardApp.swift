import DashModel
import DashView
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues
import SubscriberStorage

/// What the dashboard's loop draws on: the real `Terminal`, or a pipe-backed fake in tests.
package protocol DashboardScreen: LoopTerminal {
  var size: (width: Int, height: Int) { get }
  func draw(_ frame: Frame)
  /// Puts `text` on the terminal's clipboard (OSC 52); false when it could not be written.
  func copyToClipboard(_ text: String) -> Bool
}

extension Terminal: DashboardScreen {}

/// The interactive dashboard: one loop on the main thread multiplexing keys, the store's follow of
/// the subscriber shown, signals and a clock tick that only runs while something on screen counts down.
package struct DashboardApp {
  package let session: DashboardSession
  package let colorWanted: Bool
  /// Where a copy goes after it is written (`TmuxClipboard`), asked at each copy; tests give their own.
  package var clipboardRoute: () -> ClipboardRoute = TmuxClipboard.current

  package init(session: DashboardSession, colorWanted: Bool) {
    self.session = session
    self.colorWanted = colorWanted
  }

  /// Runs until q, a signal or the terminal going away. Returns the process exit code.
  package func run() throws -> Int32 {
    // Before anything can start a thread: the blocked signal mask is inherited, not shared.
    let signals = try SignalWatcher()
    let terminal = try Terminal.start(options: .init(color: colorWanted))
    defer { terminal.restore() }
    return loop(on: terminal, signals: signals, follower: Self.follower(of: session.path), clock: WallClock.now)
  }

  /// The store's follow of the one subscriber at `path` (a `--db` dashboard's file is in the
  /// mirror's directory, which `subdash-db mirror` rewrites as the database's NOTIFY arrives).
  package static func follower(of path: String) -> DirectoryFollower {
    let (store, name) = DirectorySubscriberStore.holding(path)
    return store.liveFollower(only: name)
  }

  /// The loop itself: every event becomes a `UIAction`, `reduce` decides, effects run through the
  /// session and report back as actions, and each frame's scroll extents return as `.laidOut`.
  /// - Parameter clock: the wall clock (a fixed one in tests).
  package func loop(on terminal: DashboardScreen, signals: SignalWatcher?, follower: DirectoryFollower?, ttyFD: Int32 = 0,
            clock: () -> Instant) -> Int32 {
    var ui = UIState()
    // Each goes to the message log (`?`); the last stays on the status line.
    for message in session.openingMessages { ui.status = StatusLine(message) }
    var exitCode: Int32 = 0
    var wall = clock()
    var vm = session.model(wall: wall)

    let refetch = BackgroundFetch(statePath: session.path)
    let retention = RetentionRequest(statePath: session.path)
    func dispatch(_ first: UIAction) -> LoopControl {
      var actions = [first]
      while !actions.isEmpty {
        let action = actions.removeFirst()
        for effect in reduce(&ui, action, context: vm) {
          switch effect {
          case .quit: return .stop
          case .perform(let planAction): actions.append(outcome(session.perform(planAction, wall: wall)))
          case .simulate(let command):
            // A long step redraws after each part it saves: the screen shows its clock moving.
            actions.append(outcome(session.simulate(command, wall: wall) { progress in
              _ = session.reload(wall: wall)
              vm = session.model(wall: wall)
              _ = dispatch(.stepProgressed(progress))
              draw()
            }))
          case .refetch:
            if let origin = FetchOrigin(document: vm.state.document), let failed = refetch.start(origin) { actions.append(failed) }
          case .loadEvents(let wanted):
            if let failure = session.loadEvents(wanted) { actions.append(.actionFailed(failure)) }
            vm = session.model(wall: wall)
          case .searchEvents(let search, let from, let forward):
            actions.append(session.searchEvents(search, from: from, forward: forward))
            vm = session.model(wall: wall)
          case .copyToClipboard(let text):
            if !terminal.copyToClipboard(text) {
              actions.append(.actionFailed("could not write to the terminal: nothing was copied"))
            } else {
              actions.append(.copyRouted(clipboardRoute()))
            }
          case .reload:
            // Our own write shows at once rather than waiting for the watcher's echo.
            let reloaded = session.reload(wall: wall)
            vm = session.model(wall: wall)
            actions.append(reloaded)
          case .askRetention:
            if let failed = retention.start() { actions.append(failed) }
          }
        }
      }
      return .continue
    }
    func draw() {
      let size = terminal.size
      let frame = render(vm, ui, width: size.width, height: size.height)
      terminal.draw(frame)
      if frame.extents != ui.extents { _ = dispatch(.laidOut(frame.extents)) }
    }

    let size = terminal.size
    _ = dispatch(.resized(width: size.width, height: size.height))
    draw()

    EventLoop(terminal: terminal, signals: signals, follower: follower, ttyFD: ttyFD).run(nextTimeout: {
      // While a background fetch runs, wake often enough to report its end promptly.
      let screen = session.msUntilScreenChanges(wall: clock(), ui)
      return refetch.isRunning || retention.isRunning ? min(screen ?? 50, 50) : screen
    }) { event in
      wall = clock()
      if let finished = refetch.poll() {
        vm = session.model(wall: wall)
        if dispatch(finished) == .stop { return .stop }
      }
      if let answered = retention.poll() {
        vm = session.model(wall: wall)
        if dispatch(answered) == .stop { return .stop }
      }
      if let status = event.endingStatus {
        exitCode = status
        return .stop
      }
      let action: UIAction
      switch event {
      case .key(let key): action = .keyPressed(key)
      case .followed: action = session.reload(wall: wall)
      case .tick: action = .ticked(wall)
      case .resize: action = .resized(width: terminal.size.width, height: terminal.size.height)
      case .signal, .ttyClosed: return .stop  // answered by endingStatus above
      }
      vm = session.model(wall: wall)
      if dispatch(action) == .stop { return .stop }
      draw()
      return .continue
    }
    return exitCode
  }

  private func outcome(_ result: EffectOutcome) -> UIAction {
    switch result {
    case .succeeded(let message): return .actionSucceeded(message)
    case .failed(let message): return .actionFailed(message)
    }
  }
}
