import DashModel

/// Stacks titled sections into a column, dropping the least important ones when rows run out.
enum Layout {
  /// From this width the events get a column of their own. Below it one column shows more: at
  /// 120 the events column was 41 wide and cut every label, while the left column cut the plan's
  /// status rule with rows to spare.
  static let twoColumnWidth = 150

  enum Kind: Int, Comparable {
    // Raw value = importance: the lowest is dropped first.
    case events = 0, otherStores, winBack, plans, plan
    static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    var name: String {
      switch self {
      case .events: return "events"
      case .winBack: return "win-back"
      case .otherStores: return "other stores"
      case .plans: return "plans"
      case .plan: return "plan"
      }
    }
  }

  struct Section {
    var kind: Kind
    var title: String
    var lines: [Line]
    var highlighted = false
    /// Events only: the lines of each entry (one notification may take two rows).
    var entries: [[Line]] = []
    /// Events only: which page of the whole log `entries` is (`ViewModel.eventsPage`).
    var eventsPage = EventsPage()
    /// Rows this section needs at least (title included); events grow into what is left.
    var minimumRows: Int {
      switch kind {
      case .plan: return 1 + min(2, lines.count)
      case .events: return 1 + (entries.first?.count ?? 1)
      default: return 1 + lines.count
      }
    }
    var fullRows: Int { 1 + lines.count }
  }

  static func sections(_ vm: ViewModel, _ ui: UIState, width: Int, glyphs g: Glyphs, include: [Kind]) -> [Section] {
    // Only a RevenueCat import has other stores' purchases; every other file shows no such panel.
    let others = OtherStoresPanel.lines(vm)
    return include.filter { $0 != .otherStores || !others.isEmpty }.map { kind in
      switch kind {
      case .otherStores: return Section(kind: .otherStores, title: OtherStoresPanel.title, lines: others)
      case .plan: return Section(kind: .plan, title: "Current plan", lines: PlanPanel.lines(vm, ui, glyphs: g, compact: width < 60))
      case .plans: return Section(kind: .plans, title: PlansPanel.title(vm), lines: PlansPanel.lines(vm, ui, width: width, glyphs: g))
      case .winBack: return Section(kind: .winBack, title: "Win-back offers", lines: WinBackPanel.lines(vm, ui, glyphs: g),
                                    highlighted: ui.highlights.isHighlighted(.winBack, at: vm.clock.wall))
      case .events:
        let entries = EventsPanel.entries(vm, ui, width: width - 2)
        return Section(kind: .events, title: EventsPanel.title(vm), lines: entries.flatMap { $0 },
                       highlighted: ui.highlights.isHighlighted(.events, at: vm.clock.wall), entries: entries,
                       eventsPage: EventsPage(offset: vm.eventsPage.offset, total: vm.eventsTotal))
      }
    }
  }

  /// Rows `sections` take when every line is shown, title rows included.
  static func fullRows(_ sections: [Section]) -> Int { sections.reduce(0) { $0 + $1.fullRows } }

  /// Drops sections by importance until the minimums fit, grows fixed ones to full size in order,
  /// gives the rest to events, then draws.
  static func stack(_ all: [Section], in r: Rect, ui: UIState, into c: inout Canvas) {
    var kept = all
    var hidden: [Kind] = []
    // A dropped panel is named on a row of its own, so a small terminal never hides one silently.
    func needed() -> Int { kept.reduce(0) { $0 + $1.minimumRows } + (hidden.isEmpty ? 0 : 1) }
    while !kept.isEmpty, needed() > r.height {
      let weakest = kept.indices.min { kept[$0].kind < kept[$1].kind }!
      hidden.append(kept.remove(at: weakest).kind)
    }
    var spare = r.height - needed()
    var rows = kept.map(\.minimumRows)
    for i in kept.indices where kept[i].kind != .events {
      let grow = min(spare, kept[i].fullRows - rows[i])
      rows[i] += grow
      spare -= grow
    }
    if let e = kept.firstIndex(where: { $0.kind == .events }) { rows[e] += spare }

    var y = r.y
    for (section, height) in zip(kept, rows) {
      drawSection(section, in: Rect(x: r.x, y: y, width: r.width, height: height), ui: ui, into: &c)
      y += height
    }
    if !hidden.isEmpty, y < r.maxY {
      let names = hidden.reversed().map(\.name).joined(separator: ", ")
      c.draw(Line("enlarge to see \(names)", Style(.dim)), x: r.x, y: y, width: r.width)
    }
  }

  private static func drawSection(_ s: Section, in r: Rect, ui: UIState, into c: inout Canvas) {
    guard r.height > 0 else { return }
    let visible = r.height - 1
    if s.kind == .events {
      // The selected event stays visible; a pointer marks it so selection never relies on colour.
      let count = s.entries.count
      let perEntry = max(1, s.entries.first?.count ?? 1)
      let fits = max(1, visible / perEntry)
      // Selection and page are positions in the whole log; `entries` is the loaded part of it.
      let offset = s.eventsPage.offset
      let total = max(s.eventsPage.total ?? 0, offset + count)
      let selection = min(max(0, ui.eventSelection - offset), max(0, count - 1))
      // The page the reducer chose (`eventsTop`), moved the least needed to keep the selection
      // on it when the panel is shorter than the page was.
      var start = min(max(0, ui.eventsTop - offset), max(0, count - fits))
      if selection < start { start = selection }
      if selection >= start + fits { start = selection - fits + 1 }
      c.frame.extents.eventRows = fits
      var title = s.title
      if total > fits, visible > 0 { title += " \(offset + start + 1)-\(offset + min(count, start + fits)) of \(total)" }
      c.rule(title, x: r.x, y: r.y, width: r.width, highlighted: s.highlighted)
      var y = r.y + 1
      for i in start..<min(count, start + fits) {
        let isSelected = i == selection && ui.mode == .browsing && total > 1
        for (k, entryLine) in s.entries[i].enumerated() where y < r.maxY {
          let pointer = Line(isSelected && k == 0 ? c.glyphs.pointer + " " : "  ", Style(.accent, bold: true))
          var line = entryLine
          if isSelected { line = line.styled { $0.role = $0.role == .changed ? .changed : .selection } }
          c.draw(pointer + line, x: r.x, y: y, width: r.width)
          y += 1
        }
      }
      return
    }
    c.rule(s.title, x: r.x, y: r.y, width: r.width, highlighted: s.highlighted)
    for (i, line) in s.lines.prefix(visible).enumerated() {
      c.draw(line, x: r.x, y: r.y + 1 + i, width: r.width)
    }
  }
}
