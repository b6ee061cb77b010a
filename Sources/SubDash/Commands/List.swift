import ArgumentParser
import DashModel
import DashView
import DashRuntime
import FoundationEssentials
import CoreValues
import SubscriberStorage

/// `subdash list DIR`: the subscriber list for scripts: counts per status, then one line per
/// subscriber (or a JSON document). Writes no state file; the SQLite index it reads through is
/// kept beside the files only in a directory that is the user's own (docs/list.md), never with
/// --read-only.
struct List: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "Print the subscribers in a directory of state files (one line each, or JSON).",
    discussion: """
      FILTER words must all match: status:active|grace|retry|expired|revoked|none|error, \
      flag:grace|billing-retry|refunded|price-increase|pending-change|auto-renew-off|check-file|apple-signed|not-apple-signed|locally-signed, \
      product:WORD, or any part of an id, order id, appAccountToken, product or file name.
      Exit codes: 0 ok; 2 the directory cannot be read. A state file that cannot be read is \
      listed with status error and its one-line error, never skipped.
      """)

  @Argument(help: "The directory of state files (*.json).")
  var directory: String?

  @Option(name: .customLong("db"), help: ArgumentHelp("List a team database instead of a directory (without DIR: $SUBDASH_DB; see `subdash db --help`). A password here is seen by every user in `ps`: prefer SUBDASH_DB, --db-file or ~/.pgpass.", valueName: "postgres://USER@HOST/DB"))
  var database: String?

  @Option(name: .customLong("db-file"), help: ArgumentHelp("List the team database whose URL this private file holds (mode 600, not a symbolic link).", valueName: "PATH"))
  var databaseFile: String?

  @Flag(name: .long, help: "Print {counts, subscribers:[…]} as JSON (as --format json).")
  var json = false

  @Option(name: .long, help: ArgumentHelp("text: a counts line, a header row and aligned columns; tsv: a header row and tab-separated fields (status as the 1-5 code and its name, dates in ISO 8601), for cut/awk/spreadsheets; json: as --json.", valueName: "text|tsv|json"))
  var format = "text"

  @Option(name: .long, help: "Keep only the subscribers matching these words (as typed after / in the list).")
  var filter = ""

  // Unconditional: `--sort -due` (a leading -, as the docs write it) is the value, not an option.
  @Option(name: .long, parsing: .unconditional, help: "Sort by id, status, product, due, flags, event or token (add - in front to reverse: --sort -due).")
  var sort = "id"

  @Flag(name: .long, help: "Only ASCII characters in the output.")
  var ascii = false

  @Flag(name: .customLong("read-only"), help: "Write nothing into DIR: the index is kept in the cache directory (~/.cache/subdash), as the list opened with --read-only keeps it.")
  var readOnly = false

  @OptionGroup var viewing: ViewingOptions

  func validate() throws {
    let namesDatabase = database != nil || databaseFile != nil || (directory == nil && DatabaseChoice.inEnvironment)
    guard (directory == nil) == namesDatabase, !(database != nil && databaseFile != nil) else { throw ValidationError("give DIR or --db URL (or --db-file PATH, or set SUBDASH_DB)") }
    _ = try viewing.nowOverride()
    _ = try Self.parseSort(sort)
    _ = try Self.parseFormat(format, json: json)
    if let problem = ListFilter.problem(in: filter) { throw ValidationError("--filter: \(problem)") }
  }

  static func parseSort(_ text: String) throws -> ListSort {
    guard let sort = ListPrinter.parseSort(text) else { throw ValidationError(ListPrinter.sortProblem(text)) }
    return sort
  }

  static func parseFormat(_ text: String, json: Bool) throws -> ListTable.Format {
    guard let format = ListTable.Format(rawValue: text) else { throw ValidationError(ListPrinter.formatProblem(text)) }
    if json, format != .text, format != .json { throw ValidationError("--json and --format \(text): give one") }
    return json ? .json : format
  }

  @Flag(name: .customLong("no-index"), help: "Read every file instead of the SQLite index (see docs/list.md).")
  var noIndex = false

  @Option(name: .customLong("index"), help: ArgumentHelp("Where the index is kept (default DIR/.subdash-index.sqlite when DIR is your own and only you can write it; otherwise, and with --read-only, ~/.cache/subdash).", valueName: "PATH"))
  var indexPath: String?

  func run() throws {
    let wall = WallClock.now()
    let database = try DatabaseChoice.url(option: self.database, file: databaseFile, readEnvironment: directory == nil)
    if database == nil, try viewing.nowOverride() == nil, !noIndex, ExecutablePath.hasSibling("subdash-list") {
      // The index lives in subdash-list (GRDB loads Foundation; `subdash` stays without it).
      // `--sort=VALUE`: a value starting with - would otherwise read as an option.
      var args = ["print", directory!, "--sort=\(sort)", "--format=\(try Self.parseFormat(format, json: json).rawValue)"]
      if !filter.isEmpty { args.append("--filter=\(filter)") }
      if ascii { args.append("--ascii") }
      if readOnly { args.append("--read-only") }
      if let indexPath { args += ["--index", indexPath] }
      try Fetch.replaceProcess(with: "subdash-list", args, command: "list")
    }
    // A database is exported once into a private directory, listed like any other, then removed.
    var mirror: DatabaseMirror?
    defer { mirror?.stop() }
    if let database {
      do { mirror = try DatabaseMirror.start(url: database, follow: false) } catch let failed as DatabaseMirror.Failed {
        throw ExitCode(failed.status)  // subdash-db printed the reason
      }
    }
    let directory = mirror?.directory ?? self.directory!
    let dir = ListDirectory(path: directory, nowOverride: try viewing.nowOverride())
    let rows: [ListRow]
    do { rows = try dir.loadAll(wall: wall) } catch { throw badInput(error.description) }
    let text = ListPrinter.text(rows: rows, now: try viewing.nowOverride() ?? wall, directory: directory,
                                shownName: database.map(Self.withoutPassword) ?? directory, isDatabase: database != nil,
                                filter: filter, sort: try Self.parseSort(sort), format: try Self.parseFormat(format, json: json), ascii: ascii)
    print(text, terminator: "")
  }

  /// A database URL as it may be printed: `postgres://user:***@host/db`.
  static func withoutPassword(_ url: String) -> String { DatabaseURLSource.redacted(url) }
}
