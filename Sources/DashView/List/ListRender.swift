import DashModel
import CoreValues

/// The list screen as a Frame: a title, counts per status, the filter, column headings, one
/// line per subscriber and the key hints. Only the rows on screen are drawn, so the cost of a
/// redraw does not grow with the directory.
public enum ListRender {
  /// Rows above and below the table: title, counts, filter, headings; footer.
  public static let chromeRows = 5

  public static func pageRows(height: Int) -> Int { max(1, height - chromeRows) }

  public static func render(_ s: ListState, width: Int, height: Int, readOnly: Bool, ascii: Bool) -> Frame {
    var c = Canvas(width: width, height: height, ascii: ascii)
    guard width > 0, height > 0 else { return c.frame }
    let g = c.glyphs
    // Title: what this is, the directory, and how many rows the filter keeps.
    var title = Line("SubDash", Style(.title, bold: true)) + Line(" ") + Line("[subscribers]", Style(.badge, bold: true, reverse: true))
    if readOnly { title = title + Line(" ") + Line("[read-only]", Style(.badge, bold: true)) }
    let shown = Line("\(s.shownRows) of \(s.totalRows) shown", Style(.value))
    let dirRoom = width - title.width - shown.width - 4
    if dirRoom >= 8 { title = title + Line("  ") + Line(HeaderPanel.shortened(s.directory, to: dirRoom, ellipsis: g.ellipsis), Style(.value)) }
    c.draw(title, x: 0, y: 0, width: width - shown.width - 2)
    c.drawRight(shown, x: 0, y: 0, width: width)
    if height > 1 { c.draw(countsLine(s, g), x: 0, y: 1, width: width) }
    if height > 2 { c.draw(filterLine(s), x: 0, y: 2, width: width) }
    if s.editingFilter, height > 2 {
      c.frame.cursor = (min(width - 1, 8 + DisplayWidth.of(Sanitizer.clean(s.filterText))), 2)
    }
    if s.showingHelp {
      for (i, line) in helpLines(g).enumerated() where 3 + i < height - 1 { c.draw(line, x: 0, y: 3 + i, width: width) }
    } else if height > 3 {
      let page = pageRows(height: height)
      let onScreen = s.visible.dropFirst(s.top).prefix(page).map { s.rows[$0] }
      let columns = layout(width: width, needs: needs(s, rows: onScreen, g))
      drawHeadings(&c, s, columns, y: 3)
      for n in 0..<page {
        let v = s.top + n
        guard v < s.visible.count else { break }
        let row = s.rows[s.visible[v]]
        drawRow(&c, row, s, columns, y: 4 + n, selected: v == s.selectedIndex, width: width)
      }
      if s.visible.isEmpty {
        let why = s.totalRows == 0 ? "no state files (*.json) in this directory yet" : "no subscriber matches the filter (Esc clears it)"
        c.draw(Line(why, Style(.dim)), x: 2, y: 4, width: width - 2)
      }
    }
    if height > 4 { c.draw(footer(s, g, width: width), x: 0, y: height - 1, width: width) }
    return c.frame
  }

  // MARK: pieces

  static func glyph(_ status: ListStatus, _ g: Glyphs) -> (String, Role) {
    switch status {
    case .active: return (g.current, .ok)
    case .grace: return (g.warn, .warn)
    case .retry, .expired, .revoked, .fileError: return (g.error, .danger)
    case .none: return (g.dash, .dim)
    }
  }

  /// "● active 3 · ⚠ grace 1 · ✖ retry 1 · ✖ expired 2 · ✖ revoked 0", plus the rarer kinds when
  /// present; the words are the ones `status:` takes in the filter.
  public static func countsText(_ s: ListState, ascii: Bool) -> String {
    Sanitizer.clean(countsLine(s, ascii ? .ascii : .unicode).text)
  }

  static func countsLine(_ s: ListState, _ g: Glyphs) -> Line {
    let counts = s.counts
    var runs: [Run] = []
    for status in ListStatus.allCases {
      let n = counts[status] ?? 0
      if n == 0, status == .none || status == .fileError { continue }
      if !runs.isEmpty { runs.append(Run("  ")) }
      let (glyph, role) = glyph(status, g)
      // "none" carries no alarm, so no glyph: the line then fits 80 columns with every kind.
      runs.append(Run(status == .none ? "none " : "\(glyph) \(status.rawValue) ", Style(role)))
      runs.append(Run("\(n)", Style(n > 0 ? role : .dim, bold: n > 0)))
    }
    return Line(runs)
  }

  static func filterLine(_ s: ListState) -> Line {
    if s.editingFilter || !s.filterText.isEmpty {
      return Line([Run("filter: ", Style(.label)), Run(s.filterText, Style(s.editingFilter ? .accent : .value, bold: true))])
    }
    return Line("filter: (/ to type: status:grace product:premium flag:refunded, or any id or token)", Style(.dim))
  }

  struct Column {
    var column: ListColumn
    var x: Int
    var width: Int
  }

  /// Each column's usual width, in screen order (which is also the order columns are dropped in
  /// from the right as the terminal narrows).
  static let usualWidths: [(ListColumn, Int)] = [(.id, 18), (.status, 17), (.product, 13), (.due, 20), (.flags, 16), (.lastEvent, 34), (.token, 37)]

  /// Short columns whose cut text loses the point ("Premium (An…", "retry ends in 41d …"): they
  /// get the width their text needs first, lent by a long column when nothing is left over.
  static let widenedFirst: [ListColumn] = [.product, .due, .status]
  /// Then what is left goes to the rest, in the order support reads them. The id grows a little
  /// at most (`idGrowsAtMost`): an id another file shares shows its file at the end of the cell
  /// however narrow (`idCell`), so it never takes the width of the columns to its right (it once
  /// took 42 of 120).
  static let widenedThen: [ListColumn] = [.id, .lastEvent, .flags, .token]
  /// The most the id column grows: a file name shown for a row without an id ("(ask-to-buy.json)")
  /// one or two letters past the usual width is shown whole, a shared id's file is not (it is cut
  /// at the front instead, `idCell`).
  static let idGrowsAtMost = 4
  /// The narrowest a column is drawn, and the last event's narrowest when it lends.
  static let minimumWidth = 8
  static let lastEventLendsDownTo = 20

  /// Columns that fit at their usual width are shown, left to right; the last one takes what is
  /// left of the line. `needs` is how wide each column's text on screen is (plus its gap): a
  /// column whose text is cut is widened to it, with a second space before the next column so
  /// two columns' words never read as one ("retry ends in 41d 01h  retry"), first the short
  /// columns (`widenedFirst`, lent by the last event column, or the rightmost, when the line
  /// is full), then the others (`widenedThen`) from what is left over.
  static func layout(width: Int, needs: [ListColumn: Int] = [:]) -> [Column] {
    var shown: [ListColumn] = []
    var widths: [ListColumn: Int] = [:]
    var x = 2
    for (column, usual) in usualWidths {
      let room = width - x
      guard room >= minimumWidth else { break }
      shown.append(column)
      widths[column] = min(usual, room)
      x += usual
    }
    var left = max(0, width - 2 - widths.values.reduce(0, +))
    func short(_ column: ListColumn) -> Int { max(0, (needs[column].map { $0 + 1 } ?? 0) - (widths[column] ?? 0)) }
    let lender: ListColumn? = shown.contains(.lastEvent) ? .lastEvent : shown.last
    for column in widenedFirst where shown.contains(column) {
      var more = short(column)
      let given = min(more, left)
      widths[column, default: 0] += given
      left -= given
      more -= given
      guard more > 0, let lender, lender != column, let has = widths[lender] else { continue }
      let lent = min(more, max(0, has - (lender == .lastEvent ? lastEventLendsDownTo : minimumWidth)))
      widths[lender] = has - lent
      widths[column, default: 0] += lent
    }
    // The id last again, without the cap: width nobody else needs shows a shared id whole.
    var idWidened = false
    for column in widenedThen + [.id] where shown.contains(column) && left > 0 {
      let capped = column == .id && !idWidened
      if column == .id { idWidened = true }
      let given = min(short(column), left, capped ? idGrowsAtMost : Int.max)
      widths[column, default: 0] += given
      left -= given
    }
    var out: [Column] = []
    x = 2
    for column in shown {
      let w = widths[column] ?? 0
      out.append(Column(column: column, x: x, width: w))
      x += w
    }
    return out
  }

  /// How wide each column's text is on the rows given (the rows on screen), with the one-column gap.
  static func needs(_ s: ListState, rows: [ListRow], _ g: Glyphs) -> [ListColumn: Int] {
    var out: [ListColumn: Int] = [:]
    for row in rows where row.error == nil {
      for column in ListColumn.allCases {
        let w = cellText(row, column, s, g).width + 1
        if w > out[column] ?? 0 { out[column] = w }
      }
    }
    return out
  }

  /// The words before a due row's countdown: "renews in 3d", "retry ends in 41d".
  static func dueWords(_ kind: ListRow.Due.Kind) -> String {
    kind == .retryEnds ? "retry ends" : kind.rawValue
  }

  static func drawHeadings(_ c: inout Canvas, _ s: ListState, _ columns: [Column], y: Int) {
    let g = c.glyphs
    for col in columns {
      // The full heading when it fits, else the short word (the column stays identifiable).
      let full = "\(col.column.rawValue + 1) \(col.column.title)"
      var text = full.count + 3 <= col.width ? full : "\(col.column.rawValue + 1) \(col.column.shortTitle)"
      let bold = col.column == s.sort.column
      if bold { text += s.sort.descending ? (c.ascii ? " v" : " ▼") : (c.ascii ? " ^" : " ▲") }
      _ = g
      c.draw(Line(text, Style(bold ? .accent : .label, bold: bold)), x: col.x, y: y, width: col.width - 1)
    }
  }

  static func cellText(_ row: ListRow, _ column: ListColumn, _ s: ListState, _ g: Glyphs) -> Line {
    if let error = row.error {
      switch column {
      case .id: return Line(row.file, Style(.value))
      case .status: return Line("\(g.error) FILE ERROR", Style(.danger, bold: true))
      case .product: return Line(error, Style(.danger))
      default: return .empty
      }
    }
    switch column {
    case .id:
      guard let id = row.originalTransactionId else { return Line("(\(row.file))", Style(.dim)) }
      // Another file holds the same subscriber: which file this row is, or the two look alike.
      if s.sharesId(row) { return Line([Run(id, Style(.value)), Run(" " + row.file, Style(.dim))]) }
      return Line(id, Style(.value))
    case .status:
      let (glyph, role) = glyph(row.status, g)
      return Line("\(glyph) \(row.status.word)", Style(role, bold: true))
    case .product: return Line(row.productName ?? row.productId ?? g.dash, Style(.value))
    case .due:
      guard let due = row.due else { return Line(g.dash, Style(.dim)) }
      let left = due.date - (row.simulatedNow ?? s.now)
      let when = left.ms > 0 ? "in \(Format.countdown(left))" : "\(Format.countdown(Span(ms: -left.ms))) ago"
      return Line("\(dueWords(due.kind)) \(when)", Style(due.kind == .renews ? .value : .warn))
    case .flags: return row.flags.isEmpty ? Line(g.dash, Style(.dim)) : Line(row.flags.map(\.word).joined(separator: " "), Style(.warn))
    case .token: return Line(row.appAccountToken ?? g.dash, Style(row.appAccountToken == nil ? .dim : .value))
    case .lastEvent:
      guard let event = row.lastEvent else { return Line(g.dash, Style(.dim)) }
      // The year when it is not the list's current one (a lapsed subscriber's last event may
      // be years old; "Mar 08" would read as this March), seconds within the hour.
      let date = row.lastEventDate.map { " " + Format.dateShort($0, now: s.now) } ?? ""
      return Line([Run(event, Style(.value)), Run(date, Style(.dim))])
    }
  }

  /// The id cell in WIDTH columns. A row whose id another file shares ends in its file name
  /// ("2000000820915733 grace-copy.json"); cut, it keeps that end ("…grace-copy.json"), which
  /// tells the two rows apart where cutting the end would leave both "2000000820915733 …".
  static func idCell(_ row: ListRow, _ s: ListState, _ g: Glyphs, width: Int) -> Line {
    let line = cellText(row, .id, s, g)
    guard row.error == nil, s.sharesId(row), line.width > width, let id = row.originalTransactionId else { return line }
    let cut = Sanitizer.truncateLeading(id + " " + row.file, to: width, ellipsis: g.ellipsis)
    // The file keeps its dim style, what is left of the id its value style.
    let file = " " + Sanitizer.clean(row.file)
    guard cut.hasSuffix(file) else { return Line(cut, Style(.dim)) }
    return Line([Run(String(cut.dropLast(file.count)), Style(.value)), Run(file, Style(.dim))])
  }

  static func drawRow(_ c: inout Canvas, _ row: ListRow, _ s: ListState, _ columns: [Column], y: Int, selected: Bool, width: Int) {
    let g = c.glyphs
    if selected { c.draw(Line(g.pointer, Style(.accent, bold: true)), x: 0, y: y, width: 2) }
    for col in columns {
      // An unreadable file's error takes the rest of the line from the product column on.
      if row.error != nil, col.column == .product {
        c.draw(cellText(row, .product, s, g), x: col.x, y: y, width: width - col.x)
        break
      }
      // Two spaces after a text shown whole, one after a cut one (its ellipsis ends it), so the
      // words of two columns never read as one ("retry ends in 41d 01h retry"). A text one
      // column short of whole is cut a little more rather than shown with a single space.
      let text = col.column == .id ? idCell(row, s, g, width: col.width - 2) : cellText(row, col.column, s, g)
      let isLast = col.column == columns.last?.column
      c.draw(text, x: col.x, y: y, width: text.width == col.width - 1 && !isLast ? col.width - 2 : col.width - 1)
    }
    if s.isHighlighted(row.file) { c.frame.restyle(x: 2, y: y, width: width - 2) { $0.role = .changed } }
    if selected { c.frame.restyle(x: 0, y: y, width: width) { $0.reverse = true } }
  }

  static func footer(_ s: ListState, _ g: Glyphs, width: Int) -> Line {
    if let m = s.message { return Line("\(g.error) \(m)", Style(.danger, bold: true)) }
    let hints: [(String, String)]
    if s.showingHelp {
      hints = [("Esc", "close")]
    } else if s.editingFilter {
      hints = [("Enter", "keep filter"), ("Esc", "clear"), (g.upDown, "move"), ("Backspace", "delete")]
    } else {
      hints = [(g.upDown, "move"), ("Enter", "open"), ("/", "filter"), ("s", "sort"), ("S", "reverse"), ("?", "help"), ("q", "quit")]
    }
    var runs: [Run] = []
    for (key, hint) in hints {
      runs += [Run(key, Style(.keyHint, bold: true)), Run(" " + hint + "  ", Style(.dim))]
    }
    return Line(runs)
  }

  static func helpLines(_ g: Glyphs) -> [Line] {
    let rows: [(String, String)] = [
      ("\(g.upDown) j/k", "move; PgUp/PgDn a page; Home/End (g/G) first/last"),
      ("Enter", "open the dashboard (q there comes back to this row)"),
      ("/", "filter as you type; Enter keeps the filter, Esc clears it"),
      ("", "status:grace status:retry product:premium flag:refunded"),
      ("", "any other word: part of an id, order id, token or file"),
      ("s / S", "sort by the next column / reverse the order"),
      ("1-7", "sort by that column (again: reverse)"),
      ("q", "quit"),
    ]
    return [Line("Keys", Style(.title, bold: true))] + rows.map { key, text in
      Line([Run(key.padding(12), Style(.keyHint, bold: true)), Run(text, Style(.value))])
    }
  }
}

private extension String {
  func padding(_ n: Int) -> String { self + String(repeating: " ", count: max(1, n - count)) }
}
