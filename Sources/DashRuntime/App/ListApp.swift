import CNcurses
import DashModel
import DashView
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues
import SubscriberStorage

/// The interactive subscriber list: `subdash DIR`. Enter opens a subscriber's dashboard (the
/// same one `subdash FILE` opens, with the same options); when it closes, the list comes back on
/// the same row. The directory store's follow keeps it live: new files appear, changed rows update
/// and highlight, removed ones go.
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
    let rows = source ?? ListDirectory(path: directoryPath, nowOverride: nowOverride)
    let wall0 = WallClock.now()
    let list = Session(rows: rows, store: DirectorySubscriberStore(directory: directoryPath), nowOverride: nowOverride)
    var state: ListState
    if let first = rows.firstPage(limit: Self.firstPageRows(), wall: wall0) {
      // The first screen from the index's first page; every row follows after it is drawn. The
      // watch can start after it too (adding it to 100,000 files costs the kernel ~8 ms): the
      // files are compared with the index after it began, so nothing written before is missed.
      state = ListState(directory: title ?? directoryPath, firstPage: first.page, now: nowOverride ?? wall0)
      list.rest = first
    } else {
      // Watching starts before the files are read, so what is written meanwhile is reported after.
      list.startWatching()
      let loaded = try rows.loadAll(wall: wall0)
      if let signal = rows.stoppedBy {
        // Before the screen is taken: one line on the terminal as it was, and the shell's status.
        LineOut.stderr("subdash: stopped (\(InterruptCheck.name(signal))) while indexing \(title ?? directoryPath); nothing half made is left (the next open builds the index again)")
        return InterruptCheck.exitStatus(signal)
      }
      state = ListState(directory: title ?? directoryPath, rows: loaded, now: nowOverride ?? wall0)
    }
    var checkPending = rows.checksAfterFirstScreen
    list.notice(&state)
    while true {
      let ending = try browse(&state, list, signals: signals, checkFirst: checkPending)
      checkPending = false
      switch ending {
      case .exit(let code): return code
      case .open(let file):
        if let code = try openDashboard(file, list, &state) { return code }
      }
    }
  }

  /// How many rows the first page holds: the terminal's height (more than its page of rows), or
  /// enough for a large one when the height cannot be read yet.
  private static func firstPageRows() -> Int {
    var rows: Int32 = 0, cols: Int32 = 0
    if cn_winsize(1, &rows, &cols) == 0 || cn_winsize(0, &rows, &cols) == 0, rows > 0 { return Int(rows) }
    return 200
  }

  /// What the list's rows come from and when "now" is, with the one way they reach the reducer.
  private final class Session {
    let rows: any ListRowSource
    let store: DirectorySubscriberStore
    /// The directory's watch (inotify), made by `startWatching`.
    private var watch: FileWatcher?
    /// The store's follow of every state file; made by `follow()` once the first screen is up.
    private(set) var follower: DirectoryFollower?
    let nowOverride: Instant?
    var pageRows = 1
    /// Every row still to read, after the first screen (`ListRowSource.firstPage`).
    var rest: ListFirstPageLoad?
    /// Reading them and comparing the files with them, from the first screen until the list
    /// has adopted both.
    private var loader: ListLoader?
    /// Files to look at once the comparison is in (the follow named them, their moment passed):
    /// read before it, they would be overwritten by its older rows.
    private var namedWhileLoading: Set<String> = []

    init(rows: any ListRowSource, store: DirectorySubscriberStore, nowOverride: Instant?) {
      self.rows = rows
      self.store = store
      self.nowOverride = nowOverride
    }

    /// Starts the watch, before anything it must report could happen unseen.
    @discardableResult
    func startWatching() -> FileWatcher {
      if let watch { return watch }
      let made = FileWatcher(directory: store.directory)
      watch = made
      return made
    }

    /// Starts the store's follow from the stamps the rows were read at; rows from the index come
    /// with none, and the follow then stamps every file itself, after the first screen is drawn.
    func follow() -> DirectoryFollower {
      if let follower { return follower }
      let made = store.follower(watch: startWatching(), known: rows.loadedStamps)
      follower = made
      return made
    }

    func now(_ wall: Instant) -> Instant { nowOverride ?? wall }

    /// Reduces `action` and carries out what the list asks for, until only `.open` or `.quit` is left.
    func reduce(_ state: inout ListState, _ action: ListAction) -> [ListEffect] {
      var pending = ListReducer.reduce(&state, action, pageRows: pageRows)
      var left: [ListEffect] = []
      while !pending.isEmpty {
        let effect = pending.removeFirst()
        guard case .reread(let files) = effect else { left.append(effect); continue }
        if isLoading {
          namedWhileLoading.formUnion(files)
          continue
        }
        let wall = WallClock.now()
        pending += ListReducer.reduce(&state, .rowsChanged(upserts: rows.rows(due: files, wall: wall), removed: [], at: now(wall)), pageRows: pageRows)
      }
      return left
    }

    /// Files that changed (`names` as the store's follow reported them; nil: compare every file).
    func changes(_ state: inout ListState, names: Set<String>?) {
      let wall = WallClock.now()
      let (upserts, removed) = rows.changes(names: names, wall: wall)
      _ = reduce(&state, .rowsChanged(upserts: upserts, removed: removed, at: now(wall)))
    }

    func notice(_ state: inout ListState) {
      if let text = rows.takeNotice() { _ = reduce(&state, .noticed(text)) }
    }

    /// Starts reading every row on another thread (after the first screen is drawn).
    func startLoading(_ state: ListState) {
      guard let rest, loader == nil else { return }
      self.rest = nil
      // Before the files are stamped and compared: what is written after is reported.
      startWatching()
      let store = self.store
      loader = ListLoader(rest, directory: state.directory, now: state.now) {
        var stamps: [String: FileStamp] = [:]
        for name in (try? store.list()) ?? [] { stamps[name] = FileStamp(path: store.path(of: name)) }
        return stamps
      }
    }

    /// True from the first screen until every row and the comparison are adopted.
    var isLoading: Bool { loader != nil }

    /// Files to read again (the follow named them, a dashboard opened from the list closed):
    /// now, or once the comparison is in.
    func followed(_ state: inout ListState, names: Set<String>) {
      if isLoading {
        namedWhileLoading.formUnion(names)
      } else {
        changes(&state, names: names)
      }
    }

    /// Adopts what the other thread read, as it is ready: every row (what happened meanwhile is
    /// replayed on them), then what comparing the files found, then the files named meanwhile.
    /// Returns what the replayed keys ask for (Enter pressed meanwhile opens its row now), and
    /// whether anything was adopted (the screen then changed).
    func adoptLoaded(_ state: inout ListState) -> (effects: [ListEffect], adopted: Bool) {
      guard let loader else { return ([], false) }
      var effects: [ListEffect] = []
      var adopted = false
      if state.loading != nil, let all = loader.takeAll() {
        adopted = true
        switch all {
        case .success(let all):
          effects = ListReducer.finishLoading(&state, with: all, pageRows: pageRows)
        case .failure(let error):
          let wall = WallClock.now()
          let rows = (try? rows.restFailed(error, wall: wall)) ?? []
          effects = ListReducer.finishLoading(&state, with: ListState(directory: state.directory, rows: rows, now: now(wall)), pageRows: pageRows)
        }
        notice(&state)
      }
      if follower == nil, let stamps = loader.takeStamps() {
        adopted = true
        follower = store.follower(watch: startWatching(), known: stamps)
      }
      if state.loading == nil, follower != nil, let found = loader.takeChanges() {
        adopted = true
        self.loader = nil
        if let (upserts, removed) = found {
          effects += reduce(&state, .rowsChanged(upserts: upserts, removed: removed, at: now(WallClock.now())))
        } else {
          changes(&state, names: nil)  // compared here instead (and the files read if the index failed)
        }
        if !namedWhileLoading.isEmpty {
          changes(&state, names: namedWhileLoading)
          namedWhileLoading = []
        }
        notice(&state)
      }
      return (effects, adopted)
    }
  }

  private enum Ending {
    case exit(Int32)
    case open(String)
  }

  /// One stretch of the list on the terminal: until q, a signal, or Enter on a row.
  private func browse(_ state: inout ListState, _ list: Session, signals: SignalWatcher, checkFirst: Bool) throws -> Ending {
    let terminal = try Terminal.start(options: .init(color: colorWanted))
    defer { terminal.restore() }
    func draw() {
      let size = terminal.size
      list.pageRows = ListRender.pageRows(height: size.height)
      ListReducer.keepSelectionOnScreen(&state, page: list.pageRows)
      terminal.draw(ListRender.render(state, width: size.width, height: size.height, readOnly: options.readOnly, ascii: options.ascii))
    }
    draw()
    // Every row is read on another thread, and the files stamped there for the follow; the loop
    // runs without the follow until those stamps are in, then again with it (the watch has kept
    // every change meanwhile).
    list.startLoading(state)
    if !list.isLoading { _ = list.follow() }
    if checkFirst {
      // The first screen came from the index; now compare every file with it once.
      list.changes(&state, names: nil)
      list.notice(&state)
      draw()
    }
    var ending = Ending.exit(0)
    var followerArrived = true
    while followerArrived {
      followerArrived = false
      let follower = list.follower
      EventLoop(terminal: terminal, signals: signals, follower: follower).run(nextTimeout: {
        // While every row is read, look for them every few milliseconds.
        if list.isLoading { return 5 }
        // Wake only to fade a highlight or to move the countdowns on the next second.
        let now = list.now(WallClock.now())
        guard let until = state.pruneHighlights(at: now) else { return nowOverride == nil ? 1_000 : nil }
        return Int32(clamping: max(0, Int64((until - now).ms.rounded(.up))))
      }) { event in
        // Rows read meanwhile come first: the keys kept while they were read came before this event.
        let adoption = list.adoptLoaded(&state)
        var effects = adoption.effects
        switch event {
        case .key(let key): effects += list.reduce(&state, .keyPressed(key))
        case .followed(let events): list.followed(&state, names: Set(events.map(\.name)))
        case .tick where list.isLoading:
          // Only looking for the other thread's results: the clock's tick (countdowns, rows due,
          // over every row) waits until it is done, and nothing is redrawn unless it brought some.
          if !adoption.adopted { return .continue }
        case .tick: effects += list.reduce(&state, .ticked(list.now(WallClock.now())))
        case .resize: break
        case .signal(let sig):
          ending = .exit(128 + sig)
          return .stop
        case .ttyClosed:
          ending = .exit(128 + SIGHUP)
          return .stop
        }
        for effect in effects {
          switch effect {
          case .quit: return .stop
          case .open(let file):
            ending = .open(file)
            return .stop
          case .reread: break  // carried out by the session
          }
        }
        draw()
        if follower == nil, list.follower != nil {
          // The follow is ready: the loop starts again waiting on it too.
          followerArrived = true
          return .stop
        }
        return .continue
      }
    }
    return ending
  }

  /// The dashboard of one row's file, as `subdash FILE` opens it. Returns an exit code when a
  /// signal ended the dashboard (the list ends too), nil to go back to the list.
  private func openDashboard(_ file: String, _ list: Session, _ state: inout ListState) throws -> Int32? {
    let path = list.rows.filePath(file)
    do {
      var dashboardOptions = options
      dashboardOptions.openedFromList = true
      let session = try DashboardSession(path: path, displayName: path, options: dashboardOptions, nowOverride: nowOverride, retryAccess: retryAccess)
      session.rowWriter = rowWriter
      let code = try DashboardApp(session: session, colorWanted: colorWanted).run()
      if code != 0 { return code }
    } catch let error as StateFileError {
      _ = list.reduce(&state, .noticed("cannot open \(file): \(error.description)"))
    }
    // The dashboard may have written the file: bring its row up to date before the list returns.
    list.followed(&state, names: [file])
    return nil
  }
}
