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
  var directory: String

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
        ("directory", .string(directory)), ("counts", .object(counts)),
        ("subscribers", .array(shown.map(\.json))),
      ]))
      let text = JSONWriter.string(doc)
      print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
      return
    }
    print(ListRender.countsText(state, ascii: ascii) + "  (\(shown.count) of \(rows.count) shown)")
    for row in shown { print(row.plainLine(now: state.now, ascii: ascii)) }
  }
}
