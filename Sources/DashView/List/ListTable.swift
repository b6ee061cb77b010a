import DashModel
import CoreValues

/// `subdash list` as text for people and scripts: the list screen's columns with a header row,
/// either aligned (`--format text`) or tab-separated (`--format tsv`, one field per column, dates
/// in ISO 8601, statuses as the 1–5 code and `show --json`'s name).
public enum ListTable {
  public enum Format: String, Sendable, CaseIterable {
    case text, tsv, json
  }

  /// The TSV header's field names, in order (App Store field names where there is one).
  public static let tsvFields = [
    "originalTransactionId", "file", "status", "statusName", "productId", "productName", "due", "dueDate",
    "flags", "lastEvent", "lastEventDate", "appAccountToken", "error",
  ]

  /// The screen's columns, left to right, each padded to its widest cell (nothing cut), under a
  /// header row of the columns' titles.
  public static func text(_ s: ListState, rows: [ListRow], ascii: Bool) -> String {
    let g: Glyphs = ascii ? .ascii : .unicode
    let columns = ListColumn.allCases
    let header = columns.map(\.title)
    let cells: [[String]] = rows.map { row in
      // An unreadable file: its name, FILE ERROR and the error, as on screen, the error ending
      // the line (it is not a product, and would widen that column for every other row).
      let shown = row.error == nil ? columns : [.id, .status, .product]
      return shown.map { Sanitizer.clean(ListRender.cellText(row, $0, s, g).text) }
    }
    var widths = header.map { DisplayWidth.of($0) }
    for (line, row) in zip(cells, rows) {
      for (i, cell) in line.enumerated() where row.error == nil || i < line.count - 1 { widths[i] = max(widths[i], DisplayWidth.of(cell)) }
    }
    func joined(_ line: [String]) -> String {
      var out = ""
      for (i, cell) in line.enumerated() {
        if i == line.count - 1 {
          out += cell
        } else {
          out += cell + String(repeating: " ", count: widths[i] - DisplayWidth.of(cell) + 2)
        }
      }
      // A trailing empty cell leaves spaces: trimmed, so lines end with their text.
      while out.hasSuffix(" ") { out.removeLast() }
      return out
    }
    return ([header] + cells).map(joined).joined(separator: "\n") + "\n"
  }

  /// A header row of `tsvFields`, then one line per row. A tab or line break inside a value
  /// (a file name, an error) becomes a space, so every line splits into the same fields.
  public static func tsv(_ rows: [ListRow]) -> String {
    var out = tsvFields.joined(separator: "\t") + "\n"
    for row in rows {
      let fields: [String?] = [
        row.originalTransactionId, row.file, row.status.code.map(String.init), row.status.name, row.productId, row.productName,
        row.due?.kind.rawValue, row.due?.date.description, row.flags.isEmpty ? nil : row.flags.map(\.rawValue).joined(separator: ","),
        row.lastEvent, row.lastEventDate?.description, row.appAccountToken, row.error,
      ]
      out += fields.map { field($0 ?? "") }.joined(separator: "\t") + "\n"
    }
    return out
  }

  private static func field(_ value: String) -> String {
    String(Sanitizer.clean(value).map { $0 == "\t" || $0.isNewline ? " " : $0 })
  }
}
