import DashModel
import DashView
import CoreValues

/// `subdash list`'s output, whichever way the rows were read: the counts line, a header row and
/// one line per subscriber (`text`), a header row and tab-separated fields (`tsv`), or one JSON
/// document `{directory|database, counts, subscribers:[…]}`.
package enum ListPrinter {
  package static func text(rows: [ListRow], now: Instant, directory: String, shownName: String, isDatabase: Bool,
                           filter: String, sort: ListSort, format: ListTable.Format, ascii: Bool) -> String {
    var state = ListState(directory: directory, rows: rows, now: now)
    state.setSort(sort)
    state.setFilter(filter)
    let shown = state.visible.map { state.rows[$0] }
    switch format {
    case .tsv: return ListTable.tsv(shown)
    case .text:
      return ListRender.countsText(state, ascii: ascii) + "  (\(shown.count) of \(rows.count) shown)\n" + ListTable.text(state, rows: shown, ascii: ascii)
    case .json:
      // Keyed by `statusName`, the names the rows and `show --json` use.
      var counts = JSONObject()
      for status in ListStatus.allCases { counts[status.name] = .int(state.counts[status] ?? 0) }
      let doc = JSON.object(JSONObject([
        (isDatabase ? "database" : "directory", .string(shownName)), ("counts", .object(counts)),
        ("subscribers", .array(shown.map(\.json))),
      ]))
      let text = JSONWriter.string(doc)
      return text.hasSuffix("\n") ? text : text + "\n"
    }
  }

  /// The one line a bad `--sort` gets: what was given and every choice.
  package static func sortProblem(_ text: String) -> String {
    "--sort \(text): no such column; choose \(ListColumn.allCases.map(\.shortTitle).joined(separator: ", ")) (- in front reverses: -due)"
  }

  /// `--format` as `subdash list` takes it.
  package static func formatProblem(_ text: String) -> String {
    "--format \(text): choose \(ListTable.Format.allCases.map(\.rawValue).joined(separator: ", "))"
  }

  /// `--sort` as `subdash list` takes it: a column's short title, `-` in front to reverse.
  package static func parseSort(_ text: String) -> ListSort? {
    let descending = text.hasPrefix("-")
    let name = descending ? String(text.dropFirst()) : text
    return ListColumn.allCases.first(where: { $0.shortTitle == name }).map { ListSort($0, descending: descending) }
  }
}
