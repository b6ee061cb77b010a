import DashModel
import DashView
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The interactive subscriber list: `subdash DIR`. Enter opens a subscriber's dashboard (the
/// same one `subdash FILE` opens, with the same options); when it closes, the list comes back on
/// the same row. The directory is watched: new files appear, changed rows update and highlight.
package struct ListApp {
  package let directoryPath: String
  /// Where rows come from; the files read directly when nil.
  package var source: (any ListRowSource)?
  package let options: DisplayOptions
  package let colorWanted: Bool
  package let nowOverride: Instant?
  package let retryAccess: AccessPolicy.RetryAccess?
  /// What the header names: the directory, or the database a mirror directory follows.
  package var title: String?
  /// Where a dashboard opened from the list writes its keys when the files mirror a database.
  package var rowWriter: (any LockedRowWriting)?

  package init(directoryPath: String, source: (any ListRowSource)? = nil, options: DisplayOptions, colorWanted: Bool,
               nowOverride: Instant?, retryAccess: AccessPolicy.RetryAccess?, title: String? = nil, rowWriter: (any LockedRowWriting)? = nil) {
    self.rowWriter = rowWriter
    self.directoryPath = directoryPath
    self.source = source
    self.options = options
    self.colorWanted = colorWanted
    self.nowOverride = nowOverride
    self.retryAccess = retryAccess
    self.title = title
  }

  /// Runs until q, a signal or the terminal going away. Returns the process exit code.
  package func run() throws -> Int32 {
    // Before the parallel first read starts threads: they must inherit the blocked signal mask,
    // or a Ctrl-C could land on a worker and kill the process with the terminal still raw.
    let signals = try SignalWatcher()
    let directory = source ?? ListDirectory(path: directoryPath, nowOverride: nowOverride)
    let wall0 = WallClock.now()
    var state = ListState(directory: title ?? directoryPath, rows: try directory.loadAll(wall: wall0), now: nowOverride ?? wall0)
    let watcher = FileWatcher(directory: directoryPath)
    var checkPending = directory.checksAfterFirstScreen
    if let notice = directory.takeNotice() { state.message = notice }

    while true {
      var exitCode: Int32 = 0
      var opening: String?
      do {
        let terminal = try Terminal.start(options: .init(color: colorWanted))
        defer { terminal.restore() }
        func draw() {
          let size = terminal.size
          ListReducer.keepSelectionOnScreen(&state, page: ListRender.pageRows(height: size.height))
          terminal.draw(ListRender.render(state, width: size.width, height: size.height, readOnly: options.readOnly, ascii: options.ascii))
        }
        draw()
        if checkPending {
          // The first screen came from the index; now compare every file with it once.
          checkPending = false
          let wall = WallClock.now()
          let (upserts, removed) = directory.changes(names: nil, wall: wall)
          state.apply(upserts: upserts, removed: removed, at: nowOverride ?? wall)
          if let notice = directory.takeNotice() { state.message = notice }
          draw()
        }
        EventLoop(terminal: terminal, signals: signals, watcher: watcher).run(nextTimeout: {
          // Wake only to fade a highlight or to move the countdowns on the next second.
          let wall = WallClock.now()
          guard let until = state.pruneHighlights(at: nowOverride ?? wall) else { return nowOverride == nil ? 1_000 : nil }
          return Int32(clamping: max(0, Int64((until - (nowOverride ?? wall)).ms.rounded(.up))))
        }) { event in
          let wall = WallClock.now()
          switch event {
          case .key(let key):
            for effect in ListReducer.reduce(&state, key, pageRows: ListRender.pageRows(height: terminal.size.height)) {
              switch effect {
              case .quit: return .stop
              case .open(let file):
                opening = file
                return .stop
              }
            }
          case .fileChanged:
            let (upserts, removed) = directory.changes(names: watcher.takeChangedNames(), wall: wall)
            state.apply(upserts: upserts, removed: removed, at: nowOverride ?? wall)
          case .tick:
            _ = state.pruneHighlights(at: nowOverride ?? wall)
            // A renewal or expiry passed on the wall clock: those rows are derived again.
            let due = state.rowsDue(at: nowOverride ?? wall).files
            if !due.isEmpty {
              state.apply(upserts: directory.rows(due: due, wall: wall), removed: [], at: nowOverride ?? wall)
            }
          case .resize: break
          case .signal(let sig):
            exitCode = 128 + sig
            return .stop
          case .ttyClosed:
            exitCode = 128 + SIGHUP
            return .stop
          }
          draw()
          return .continue
        }
      }
      guard let file = opening else { return exitCode }
      let path = directory.filePath(file)
      do {
        var dashboardOptions = options
        dashboardOptions.openedFromList = true
        let session = try DashboardSession(path: path, displayName: path, options: dashboardOptions, nowOverride: nowOverride, retryAccess: retryAccess)
        session.rowWriter = rowWriter
        let code = try DashboardApp(session: session, colorWanted: colorWanted).run()
        if code != 0 { return code }  // a signal ended the dashboard: end the list too
      } catch let error as StateFileError {
        state.message = "cannot open \(file): \(error.description)"
      }
      // The dashboard may have written the file: bring its row up to date before the list returns.
      let wall = WallClock.now()
      let (upserts, removed) = directory.changes(names: [file], wall: wall)
      state.apply(upserts: upserts, removed: removed, at: nowOverride ?? wall)
    }
  }
}
