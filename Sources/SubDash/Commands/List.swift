import ArgumentParser
import DashModel
import DashView
import FoundationEssentials

/// `subdash list DIR`: the subscriber list for scripts: counts per status, then one line per
/// subscriber (or a JSON document). Never writes anything.
struct List: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "Print the subscribers in a directory of state files (one line each, or JSON).",
    discussion: """
      FILTER words must all match: status:active|grace|retry|expired|revoked|none|error, \
      flag:grace|billing-retry|refunded|price-increase|pending-change|auto-renew-off|check-file|apple-signed|not-apple-signed, \
      product:WORD, or any part of an id, order id, appAccountToken, product or file name.
      Exit codes: 0 ok; 2 the directory cannot be read. A state file that cannot be read is \
      listed with status error and its one-line error, never skipped.
      """)

  @Argument(help: "The directory of state files (*.json).")
  var directory: String?

  @Option(name: .customLong("db"), help: ArgumentHelp("List a team database instead of a directory (see `subdash db --help`).", valueName: "postgres://USER@HOST/DB"))
  var database: String?

  @Flag(name: .long, help: "Print {counts, subscribers:[…]} as JSON.")
  var json = false

  @Option(name: .long, help: "Keep only the subscribers matching these words (as typed after / in the list).")
  var filter = ""

  @Option(name: .long, help: "Sort by id, status, product, due, flags, token or event (add - in front to reverse).")
  var sort = "id"

  @Flag(name: .long, help: "Only ASCII characters in the output.")
  var ascii = false

  @OptionGroup var viewing: ViewingOptions

  func validate() throws {
    guard (directory == nil) != (database == nil) else { throw ValidationError("give DIR or --db URL") }
    _ = try viewing.nowOverride()
    _ = try Self.parseSort(sort)
  }

  static func parseSort(_ text: String) throws -> ListSort {
    let descending = text.hasPrefix("-")
    let name = descending ? String(text.dropFirst()) : text
    guard let column = ListColumn.allCases.first(where: { $0.shortTitle == name }) else { throw ValidationError("--sort must be one of id, status, product, due, flags, token, event (with - to reverse), not \(text)") }
    return ListSort(column, descending: descending)
  }

  func run() throws {
    let wall = WallClock.now()
    // A database is exported once into a private directory, listed like any other, then removed.
    var mirror: DatabaseMirror?
    defer { mirror?.stop() }
    if let database {
      do { mirror = try DatabaseMirror.start(url: database, follow: false) } catch let failed as DatabaseMirror.Failed {
        throw ExitCode(failed.status)  // subdash-db printed the reason
      }
    }
    let directory = mirror?.directory ?? self.directory!
    let shownName = database.map(Self.withoutPassword) ?? directory
    let dir = ListDirectory(path: directory, nowOverride: try viewing.nowOverride())
    let rows: [ListRow]
    do { rows = try dir.loadAll(wall: wall) } catch { throw badInput(error.description) }
    var state = ListState(directory: directory, rows: rows, now: try viewing.nowOverride() ?? wall)
    state.setSort(try Self.parseSort(sort))
    state.setFilter(filter)
    let shown = state.visible.map { state.rows[$0] }
    if json {
      var counts = JSONObject()
      for status in ListStatus.allCases { counts[status.rawValue] = .int(state.counts[status] ?? 0) }
      let doc = JSON.object(JSONObject([
        (database == nil ? "directory" : "database", .string(shownName)), ("counts", .object(counts)),
        ("subscribers", .array(shown.map(\.json))),
      ]))
      let text = JSONWriter.string(doc)
      print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
      return
    }
    print(ListRender.countsText(state, ascii: ascii) + "  (\(shown.count) of \(rows.count) shown)")
    for row in shown { print(row.plainLine(now: state.now, ascii: ascii)) }
  }

  /// A database URL as it may be printed: `postgres://user:***@host/db`.
  static func withoutPassword(_ url: String) -> String {
    guard let at = url.lastIndex(of: "@") else { return url }
    let head = url[..<at]
    guard let slashes = head.firstIndex(of: "/").map({ head.index($0, offsetBy: 2, limitedBy: head.endIndex) ?? $0 }),
          let colon = head[slashes...].firstIndex(of: ":") else { return url }
    return String(url[..<colon]) + ":***" + String(url[at...])
  }
}
