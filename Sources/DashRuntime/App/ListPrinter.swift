import DashModel
import DashView

/// `subdash list`'s output, whichever way the rows were read: the counts line and one line per
/// subscriber, or one JSON document `{directory|database, counts, subscribers:[…]}`.
package enum ListPrinter {
  package static func text(rows: [ListRow], now: Instant, directory: String, shownName: String, isDatabase: Bool,
                           filter: String, sort: ListSort, json: Bool, ascii: Bool) -> String {
    var state = ListState(directory: directory, rows: rows, now: now)
    state.setSort(sort)
    state.setFilter(filter)
    let shown = state.visible.map { state.rows[$0] }
    if json {
      var counts = JSONObject()
      for status in ListStatus.allCases { counts[status.rawValue] = .int(state.counts[status] ?? 0) }
      let doc = JSON.object(JSONObject([
        (isDatabase ? "database" : "directory", .string(shownName)), ("counts", .object(counts)),
        ("subscribers", .array(shown.map(\.json))),
      ]))
      let text = JSONWriter.string(doc)
      return text.hasSuffix("\n") ? text : text + "\n"
    }
    var out = ListRender.countsText(state, ascii: ascii) + "  (\(shown.count) of \(rows.count) shown)\n"
    for row in shown { out += row.plainLine(now: state.now, ascii: ascii) + "\n" }
    return out
  }

  /// `--sort` as `subdash list` takes it: a column's short title, `-` in front to reverse.
  package static func parseSort(_ text: String) -> ListSort? {
    let descending = text.hasPrefix("-")
    let name = descending ? String(text.dropFirst()) : text
    return ListColumn.allCases.first(where: { $0.shortTitle == name }).map { ListSort($0, descending: descending) }
  }
}
