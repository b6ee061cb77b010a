import DashModel
import DashView
import Glibc

/// The interactive dashboard: one loop on the main thread multiplexing keys, file events, signals
/// and a clock tick that only runs while something on screen counts down.
struct DashboardApp {
  let session: DashboardSession
  let colorWanted: Bool

  /// Runs until q, a signal or the terminal going away. Returns the process exit code.
  func run() throws -> Int32 {
    // Before anything can start a thread: the blocked signal mask is inherited, not shared.
    let signals = try SignalWatcher()
    let terminal = try Terminal.start(options: .init(color: colorWanted))
    defer { terminal.restore() }
    let watcher = FileWatcher(path: session.path)

    var ui = UIState()
    var exitCode: Int32 = 0
    var wall = WallClock.now()
    var vm = session.model(wall: wall)
    if let error = session.fileError { _ = reduce(&ui, .fileFailed(error), context: vm) }
    terminal.draw(render(vm, ui, width: terminal.size.width, height: terminal.size.height))

    let refetch = BackgroundFetch(statePath: session.path)
    EventLoop(terminal: terminal, signals: signals, watcher: watcher).run(nextTimeout: {
      // While a background fetch runs, wake often enough to report its end promptly.
      let screen = session.msUntilScreenChanges(wall: WallClock.now())
      return refetch.isRunning ? min(screen ?? 100, 100) : screen
    }) { event in
      wall = WallClock.now()
      var actions: [UIAction] = []
      if let finished = refetch.poll() { actions.append(finished) }
      switch event {
      case .key(let key): actions.append(.keyPressed(key))
      case .fileChanged:
        if let error = session.reload(wall: wall) { actions.append(.fileFailed(error)) } else { actions.append(.fileReloaded) }
      case .tick: actions.append(.ticked(wall))
      case .resize: actions.append(.resized(width: terminal.size.width, height: terminal.size.height))
      case .signal(let sig):
        exitCode = 128 + sig
        return .stop
      case .ttyClosed:
        exitCode = 128 + SIGHUP
        return .stop
      }
      vm = session.model(wall: wall)
      while !actions.isEmpty {
        let action = actions.removeFirst()
        for effect in reduce(&ui, action, context: vm) {
          switch effect {
          case .quit: return .stop
          case .perform(let planAction):
            actions.append(outcome(session.perform(planAction, wall: wall)))
          case .simulate(let command):
            actions.append(outcome(session.simulate(command, wall: wall)))
          case .refetch:
            if let origin = FetchOrigin(document: vm.state.document), let failed = refetch.start(origin) { actions.append(failed) }
          }
        }
        if case .actionSucceeded = action {
          // Show our own write at once rather than waiting for inotify's echo.
          session.reload(wall: wall)
          vm = session.model(wall: wall)
        }
      }
      terminal.draw(render(vm, ui, width: terminal.size.width, height: terminal.size.height))
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
