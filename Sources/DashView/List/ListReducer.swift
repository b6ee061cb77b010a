import DashModel
import CoreValues

/// What happened, as the runtime reports it to the list's reducer (as `UIAction` is to the
/// dashboard's).
public enum ListAction: Equatable, Sendable {
  case keyPressed(Key)
  /// Files read again (new or changed) and names that are gone, at this moment.
  case rowsChanged(upserts: [ListRow], removed: [String], at: Instant)
  /// The clock moved: highlights fade, and rows whose renewal or expiry passed are read again.
  case ticked(Instant)
  /// Something the runtime has to say on the status line (an index notice, a file that would not open).
  case noticed(String)
}

/// What the list asks the runtime to do.
public enum ListEffect: Equatable, Sendable {
  /// Open this file's dashboard; the list comes back, on the same row, when it closes.
  case open(file: String)
  /// Read these files again; their rows come back as `.rowsChanged`.
  case reread(files: [String])
  case quit
}

/// The list's reducer, pure: what happened and the screen height in, effects out.
///
/// Browsing: Up/Down (j/k), PgUp/PgDn, Home/End (g/G) move; Enter opens; `/` starts typing a
/// filter (the list narrows with every key); `s` sorts by the next column, `S` reverses, 1–7
/// sort by that column; Esc clears the filter; ? help; q quits.
/// Typing a filter: characters and Backspace edit it; Enter keeps it and goes back to the rows;
/// Esc clears it; Up/Down still move.
public enum ListReducer {
  public static func reduce(_ s: inout ListState, _ action: ListAction, pageRows: Int) -> [ListEffect] {
    if s.loading != nil { return whileLoading(&s, action, pageRows: pageRows) }
    switch action {
    case .keyPressed(let key):
      return press(&s, key, pageRows: pageRows)
    case .rowsChanged(let upserts, let removed, let now):
      s.apply(upserts: upserts, removed: removed, at: now)
    case .ticked(let now):
      _ = s.pruneHighlights(at: now)
      let due = s.rowsDue(at: now).files
      if !due.isEmpty { return [.reread(files: due)] }
    case .noticed(let text):
      s.message = text
    }
    return []
  }

  /// Every row has arrived (`all`, a state over every row built off the event loop): what was
  /// kept while only the first page showed is applied to it in order, so the list is what it
  /// would be had every row been there from the start. Returns the effects that asks for (Enter
  /// pressed meanwhile opens its row now).
  public static func finishLoading(_ s: inout ListState, with all: ListState, pageRows: Int) -> [ListEffect] {
    guard let loading = s.loading else { return [] }
    var next = all
    next.loading = nil
    var effects: [ListEffect] = []
    for action in loading.deferred { effects += reduce(&next, action, pageRows: pageRows) }
    s = next
    return effects
  }

  /// Before every row is here. Keys the first page answers as every row would act at once:
  /// moving up and down within it, help, quitting (Ctrl-C always). Everything is also kept and
  /// replayed on every row by `finishLoading` (a filter, a sort, the end of the list, Enter and a
  /// changed file need them all), so a key is never lost nor applied to the wrong rows. The clock
  /// waits too: the first tick after loading catches up.
  private static func whileLoading(_ s: inout ListState, _ action: ListAction, pageRows: Int) -> [ListEffect] {
    switch action {
    case .keyPressed(let key):
      s.loading?.deferred.append(action)
      if key == .ctrl("c") { return [.quit] }
      // Once a key waits, every later one does: after `/`, a `g` is filter text, not Home.
      guard s.loading?.waiting == false, s.showingHelp || answeredByFirstPage(key) else {
        s.loading?.waiting = true
        return []
      }
      return press(&s, key, pageRows: pageRows)
    case .rowsChanged:
      s.loading?.deferred.append(action)
    case .noticed(let text):
      s.loading?.deferred.append(action)
      s.message = text
    case .ticked:
      break
    }
    return []
  }

  private static func answeredByFirstPage(_ key: Key) -> Bool {
    switch key {
    case .up, .down, .pageUp, .home, .char("k"), .char("j"), .char("g"), .char("?"), .char("q"): return true
    default: return false
    }
  }

  private static func press(_ s: inout ListState, _ key: Key, pageRows: Int) -> [ListEffect] {
    s.message = nil
    if s.showingHelp {
      if key == .char("q") || key == .escape || key == .char("?") || key == .enter { s.showingHelp = false }
      return []
    }
    if s.editingFilter {
      switch key {
      case .char(let c) where !c.isNewline:
        s.setFilter(s.filterText + String(c))
        return []
      case .backspace:
        if !s.filterText.isEmpty { s.setFilter(String(s.filterText.dropLast())) }
        return []
      case .enter:
        s.editingFilter = false
        return []
      case .escape:
        s.editingFilter = false
        s.setFilter("")
        return []
      case .ctrl("u"):
        s.setFilter("")
        return []
      default: break  // movement keys below still work while typing
      }
    }
    let page = max(1, pageRows)
    let at = s.selectedIndex ?? 0
    switch key {
    case .up, .char("k"): move(&s, to: at - 1, page: page)
    case .down, .char("j"): move(&s, to: at + 1, page: page)
    case .pageUp: move(&s, to: at - page, page: page)
    case .pageDown, .char(" "): move(&s, to: at + page, page: page)
    case .home, .char("g"): move(&s, to: 0, page: page)
    case .end, .char("G"): move(&s, to: s.visible.count - 1, page: page)
    case .enter:
      guard let row = s.selectedRow, s.selectedIndex != nil else { return [] }
      if let error = row.error {
        s.message = "cannot open \(row.file): \(error)"
        return []
      }
      return [.open(file: row.file)]
    case .char("/"): s.editingFilter = true
    case .escape: if !s.filterText.isEmpty { s.setFilter("") }
    case .char("s"):
      let all = ListColumn.allCases
      s.setSort(ListSort(all[(s.sort.column.rawValue + 1) % all.count]))
    case .char("S"): s.setSort(ListSort(s.sort.column, descending: !s.sort.descending))
    case .char(let c) where ("1"..."7").contains(c):
      let column = ListColumn(rawValue: Int(String(c))! - 1)!
      // The same number again reverses, as clicking a column heading twice does elsewhere.
      s.setSort(ListSort(column, descending: s.sort.column == column ? !s.sort.descending : false))
    case .char("?"): s.showingHelp = true
    case .char("q"), .ctrl("c"): return [.quit]
    default: break
    }
    keepSelectionOnScreen(&s, page: page)
    return []
  }

  private static func move(_ s: inout ListState, to i: Int, page: Int) {
    s.select(visibleIndex: i)
  }

  /// Scrolls just enough that the selected row is on screen.
  public static func keepSelectionOnScreen(_ s: inout ListState, page: Int) {
    let at = s.selectedIndex ?? 0
    if at < s.top { s.top = at }
    if at >= s.top + page { s.top = at - page + 1 }
    s.top = max(0, min(s.top, max(0, s.visible.count - page)))
  }
}
