import ArgumentParser
import DashModel
import DashRuntime
import DashView
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberIndex
import CoreValues

/// `subdash DIR` and `subdash list DIR` run this binary (execv, same process) so the list reads
/// its SQLite index: GRDB loads Foundation, which `subdash` keeps out of its other commands'
/// start-up (StartupLinkageTests). The options are the ones `subdash` already checked.
@main
struct SubDashList: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "subdash-list",
    abstract: "The subscriber list over a directory's SQLite index (run by `subdash DIR` and `subdash list DIR`).",
    subcommands: [OpenList.self, PrintList.self])
}

struct IndexOptions: ParsableArguments {
  @Argument(help: "The directory of state files (*.json).")
  var directory: String

  @Option(name: .customLong("index"), help: "Where the index is kept (default DIR/.subdash-index.sqlite when DIR is your own and only you can write it; otherwise, and under --read-only, ~/.cache/subdash).")
  var indexPath: String?

  /// A directory that cannot be read is bad input (exit 2, one line naming it), as `subdash list` says it.
  func checkReadable() throws {
    guard let d = opendir(directory) else {
      LineOut.stderr("subdash: \(directory): cannot read the directory: \(String(cString: strerror(errno)))")
      throw ExitCode(2)
    }
    closedir(d)
  }
}

/// The interactive list (keys as in docs/list.md).
struct OpenList: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "open", abstract: "Open the interactive subscriber list.")
  @OptionGroup var index: IndexOptions
  @Flag(name: .long) var readOnly = false
  @Flag(name: .long) var ascii = false
  @Flag(name: .long) var noColor = false
  @Option(name: .long) var retryAccess: String?

  func run() throws {
    try index.checkReadable()
    var retry: AccessPolicy.RetryAccess?
    if let retryAccess {
      guard let r = AccessPolicy.RetryAccess(rawValue: retryAccess) else { throw ValidationError("--retry-access must be none or limited") }
      retry = r
    }
    let options = DisplayOptions(readOnly: readOnly, ascii: ascii || !Terminal.localeIsUTF8(), color: !noColor)
    let source = IndexedList(directory: index.directory, indexPath: index.indexPath, readOnly: readOnly)
    // A Ctrl-C during a first index build stops it between two chunks (it waited for the whole
    // build before). The signals stay blocked afterwards: the list's own watcher takes them over.
    source.interrupt = InterruptCheck()
    let app = ListApp(directoryPath: index.directory, source: source,
                      options: options, colorWanted: !noColor, nowOverride: nil, retryAccess: retry)
    let code: Int32
    do { code = try app.run() } catch let error as StateFileError {
      LineOut.stderr("subdash: " + error.description)
      throw ExitCode(2)
    }
    if code != 0 { throw ExitCode(code) }
  }
}

/// `subdash list DIR`: the same rows for scripts, brought up to date through the index first.
struct PrintList: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "print", abstract: "Print the subscriber list (as `subdash list`).")
  @OptionGroup var index: IndexOptions
  @Flag(name: .long) var json = false
  @Option(name: .long) var format = "text"
  @Flag(name: .long) var ascii = false
  @Flag(name: .long) var readOnly = false
  @Option(name: .long) var filter = ""
  @Option(name: .long, parsing: .unconditional) var sort = "id"

  func run() throws {
    guard let sortOrder = ListPrinter.parseSort(sort) else { throw ValidationError(ListPrinter.sortProblem(sort)) }
    guard let shape = ListTable.Format(rawValue: json ? "json" : format) else { throw ValidationError(ListPrinter.formatProblem(format)) }
    if let problem = ListFilter.problem(in: filter) { throw ValidationError("--filter: \(problem)") }
    try index.checkReadable()
    let wall = WallClock.now()
    let source = IndexedList(directory: index.directory, indexPath: index.indexPath, readOnly: readOnly)
    // Before the build's reading threads start, so they inherit the blocked signals: a Ctrl-C
    // during a first index build stops it between two chunks instead of killing the process.
    let interrupt = InterruptCheck()
    source.interrupt = interrupt
    var rows: [ListRow]
    do { rows = try source.loadAll(wall: wall) } catch {
      LineOut.stderr("subdash: " + error.description)
      throw ExitCode(2)
    }
    if let signal = source.stoppedBy {
      LineOut.stderr("subdash: stopped (\(InterruptCheck.name(signal))) while indexing \(index.directory); nothing half made is left (the next list builds the index again)")
      throw ExitCode(InterruptCheck.exitStatus(signal))
    }
    interrupt.finish()
    if source.checksAfterFirstScreen {
      // A script gets the truth: every file compared with the index before anything is printed.
      let (upserts, removed) = source.changes(names: nil, wall: wall)
      var byFile = Dictionary(rows.map { ($0.file, $0) }, uniquingKeysWith: { a, _ in a })
      for row in upserts { byFile[row.file] = row }
      for file in removed { byFile[file] = nil }
      rows = Array(byFile.values)  // ListPrinter sorts
    }
    if let notice = source.takeNotice() { LineOut.stderr("subdash: " + notice) }
    LineOut.stdoutText(ListPrinter.text(rows: rows, now: wall, directory: index.directory, shownName: index.directory, isDatabase: false,
                                        filter: filter, sort: sortOrder, format: shape, ascii: ascii))
  }
}
