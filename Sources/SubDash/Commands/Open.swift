import ArgumentParser
import DashModel
import DashRuntime
import DashView
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues
import SubscriberStorage

/// `subdash [FILE]`: the interactive dashboard.
struct Open: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "open",
    abstract: "Open the interactive dashboard (the default command).",
    discussion: """
      Without FILE, a demo subscriber opens in a writable temporary copy.
      Keys: u upgrade, d downgrade, c crossgrade, r redeem an offer code, w accept a win-back offer, \
      a toggle auto-renew, ? help (lists every key, including simulation keys), q quit.
      The file is watched: changes by other programs (the simulator, a test harness, an editor) \
      show at once, with changed fields highlighted. Actions are written atomically under a lock, \
      applied to what is on disk at that moment.
      Exit codes: 0 after q; 2 bad input (one-line error naming file:line:column and JSON path); \
      1 the terminal cannot be used; 128+N when ended by signal N.
      """)

  @Argument(help: "The state file, or a directory of state files (opens the subscriber list). Without one, a demo subscriber opens in a temporary copy.")
  var file: String?

  @Flag(name: .long, help: "Disable every key that changes the file (support staff inspecting a subscriber).")
  var readOnly = false

  @Flag(name: .long, help: "No colour (NO_COLOR is honoured too); meaning is kept by glyphs and words.")
  var noColor = false

  @Flag(name: .long, help: "No box drawing or other non-ASCII glyphs (automatic when the locale is not UTF-8).")
  var ascii = false

  @Option(name: .customLong("db"), help: ArgumentHelp("Open the subscriber list of a team database, or with FILE one subscriber of it (a row's name, or an originalTransactionId); keys write the row under its lock (see `subdash db --help`).", valueName: "postgres://USER@HOST/DB"))
  var database: String?

  @Option(name: .customLong("db-file"), help: ArgumentHelp("As --db, the URL read from this private file (mode 600, not a symbolic link). Without FILE, --db and --db-file, SUBDASH_DB opens its database.", valueName: "PATH"))
  var databaseFile: String?

  @Flag(name: .customLong("demo-population"), help: "Open the list on a generated population of 200 subscribers (a year simulated, in a temporary directory removed on exit).")
  var demoPopulation = false

  @Flag(name: .customLong("no-index"), help: "For a directory: read every file instead of the SQLite index (see docs/list.md).")
  var noIndex = false

  @Option(name: .customLong("index"), help: ArgumentHelp("For a directory: where its index is kept (default DIR/.subdash-index.sqlite, or a cache directory when DIR is not writable).", valueName: "PATH"))
  var indexPath: String?

  @OptionGroup var viewing: ViewingOptions

  @OptionGroup var subscriber: SubscriberChoice

  /// Bad --now/--retry-access values are usage errors (64), reported before the terminal is taken.
  func validate() throws {
    _ = try viewing.nowOverride()
    _ = try viewing.retryAccessOverride()
    if database != nil && databaseFile != nil { throw ValidationError("give --db or --db-file, not both") }
  }

  /// What `subdash [FILE]` opens. Decided from the options and two facts about the machine
  /// (whether FILE is a directory, whether `subdash-list` is installed), so it is tested alone.
  enum Opening: Equatable {
    /// The list over a generated population in a temporary directory, read here.
    case populationDemo
    /// One subscriber of the team database ("open this customer"): its dashboard, no list.
    case databaseSubscriber(String)
    /// The team database's list, through a private mirror directory that follows it live.
    case databaseList
    /// A directory's list over its SQLite index, in `subdash-list`: GRDB loads Foundation, which
    /// `subdash` keeps out of every other command's start-up.
    case indexedList(String)
    /// A directory's list reading the files here (rows at another moment, no index, no helper).
    case list(String)
    /// One state file (or an App Store or RevenueCat input, opened imported and read-only).
    case dashboard(String)
    /// The demo subscriber in a writable temporary copy.
    case demo
  }

  static func opening(file: String?, database: Bool, demoPopulation: Bool, fileIsDirectory: Bool,
                      atAnotherMoment: Bool, noIndex: Bool, listHelperFound: Bool) throws -> Opening {
    if demoPopulation {
      guard file == nil, !database else { throw ValidationError("--demo-population opens its own population; drop FILE and --db") }
      return .populationDemo
    }
    if database { return file.map(Opening.databaseSubscriber) ?? .databaseList }
    guard let file else { return .demo }
    guard fileIsDirectory else { return .dashboard(file) }
    return atAnotherMoment || noIndex || !listHelperFound ? .list(file) : .indexedList(file)
  }

  func run() throws {
    let database = try DatabaseChoice.url(option: self.database, file: databaseFile, readEnvironment: file == nil && !demoPopulation)
    let colorWanted = !noColor && (getenv("NO_COLOR").map { $0.pointee == 0 } ?? true)
    let options = DisplayOptions(readOnly: readOnly, ascii: ascii || !Terminal.localeIsUTF8(), color: colorWanted)
    let opening = try Self.opening(
      file: file, database: database != nil, demoPopulation: demoPopulation, fileIsDirectory: file.map(ListDirectory.isDirectory) ?? false,
      atAnotherMoment: try viewing.nowOverride() != nil, noIndex: noIndex, listHelperFound: ExecutablePath.hasSibling("subdash-list"))
    switch opening {
    case .populationDemo:
      let dir = PathName.directory(of: try DemoFile.makeTemporaryCopy())
      defer { DemoFile.remove(dir + "/x") }
      try? FileManager.default.removeItem(atPath: dir + "/demo.json")
      // Progress on stderr while it is made (about 18 s of a blank screen before), and Ctrl-C
      // stops cleanly: the temporary directory is removed by the defer, the exit status is 130.
      var demo = SimulatePopulation(directory: dir, count: 200, seed: 1, mix: .init(), months: 12)
      demo.temporaryName = "the demo population's temporary directory"
      do { _ = try demo.run() } catch let e as SimulateInputError { throw badInput(e.message) }
      try runList(dir, options: options, colorWanted: colorWanted)
    case .databaseSubscriber, .databaseList:
      guard let database else { return }
      // A dashboard's keys go back through the mirror to the row, under its lock.
      let mirror: DatabaseMirror
      do { mirror = try DatabaseMirror.start(url: database, follow: true) } catch let failed as DatabaseMirror.Failed {
        throw ExitCode(failed.status)  // subdash-db printed the reason
      }
      defer { mirror.stop() }
      guard case .databaseSubscriber(let wanted) = opening else {
        return try runList(mirror.directory, options: options, colorWanted: colorWanted, title: List.withoutPassword(database), rowWriter: mirror)
      }
      guard let name = DatabaseSubscriber.find(wanted, in: mirror.directory) else {
        throw badInput("\(List.withoutPassword(database)): no subscriber named \(Sanitizer.clean(wanted)) or with that originalTransactionId")
      }
      let session: DashboardSession
      do {
        session = try DashboardSession(path: ListDirectory.filePath(name, in: mirror.directory),
                                       displayName: "\(name) (\(List.withoutPassword(database)))", options: options,
                                       nowOverride: try viewing.nowOverride(), retryAccess: try viewing.retryAccessOverride())
      } catch let error as StateFileError { throw badInput(error.description) }
      session.rowWriter = mirror
      try runDashboard(session, colorWanted: colorWanted)
    case .indexedList(let directory):
      var args = ["open", directory]
      if options.readOnly { args.append("--read-only") }
      if options.ascii { args.append("--ascii") }
      if !colorWanted { args.append("--no-color") }
      if let retry = viewing.retryAccess { args += ["--retry-access", retry] }
      if let indexPath { args += ["--index", indexPath] }
      try Fetch.replaceProcess(with: "subdash-list", args, command: "the subscriber list")
    case .list(let directory):
      try runList(directory, options: options, colorWanted: colorWanted)
    case .dashboard(let path):
      try openFile(path, displayName: path, options: options, colorWanted: colorWanted)
    case .demo:
      let path: String
      do { path = try DemoFile.makeTemporaryCopy() } catch { throw badInput("cannot create the demo copy: \(error)") }
      defer { DemoFile.remove(path) }
      try openFile(path, displayName: "demo (\(path))", options: options, colorWanted: colorWanted)
    }
  }

  /// A directory of state files: the subscriber list (docs/list.md).
  private func runList(_ directory: String, options: DisplayOptions, colorWanted: Bool, title: String? = nil, rowWriter: DatabaseMirror? = nil) throws {
    let app = ListApp(directoryPath: directory, options: options, colorWanted: colorWanted,
                      nowOverride: try viewing.nowOverride(), retryAccess: try viewing.retryAccessOverride(),
                      title: title, rowWriter: rowWriter)
    let code: Int32
    do { code = try app.run() } catch let error as StateFileError { throw badInput(error.description) }
    if code != 0 { throw ExitCode(code) }
  }

  /// One state file's dashboard; an App Store or RevenueCat input opens imported in memory,
  /// read-only, nothing written.
  private func openFile(_ path: String, displayName: String, options: DisplayOptions, colorWanted: Bool) throws {
    let session = try Self.session(path, displayName: displayName, options: options, nowOverride: try viewing.nowOverride(),
                                   retryAccess: try viewing.retryAccessOverride(), subscriber: subscriber)
    try runDashboard(session, colorWanted: colorWanted)
  }

  /// The session `subdash FILE` opens on: the state file, or an input imported in memory.
  static func session(_ path: String, displayName: String, options: DisplayOptions, nowOverride: Instant?,
                      retryAccess: AccessPolicy.RetryAccess?, subscriber: SubscriberChoice) throws -> DashboardSession {
    var options = options
    do {
      if subscriber.originalTransactionId != nil { try subscriber.check(try StateFile.load(path: path), file: path) }
      return try DashboardSession(path: path, displayName: displayName, options: options, nowOverride: nowOverride, retryAccess: retryAccess)
    } catch let error as StateFileError {
      guard let imported = try ImportedView.load(path, stateError: error, originalTransactionId: subscriber.originalTransactionId) else {
        throw badInput(error.naming(path).description)
      }
      // Not a state file: no key has a file to write. Said as such, never as --read-only.
      if options.readOnlyReason == nil { options.readOnlyReason = .importedInMemory(input: path) }
      return DashboardSession(importedState: imported.state, warnings: imported.warnings, path: path, displayName: displayName + " (imported, not saved)",
                              options: options, nowOverride: nowOverride, retryAccess: retryAccess)
    }
  }

  private func runDashboard(_ session: DashboardSession, colorWanted: Bool) throws {
    let code = try DashboardApp(session: session, colorWanted: colorWanted).run()
    if code != 0 { throw ExitCode(code) }
  }
}
