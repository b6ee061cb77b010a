import DashModel

/// The full-width band under the access verdict: the customer summary (always, when the
/// history was read) and the timeline (from `TimelineFocus.autoWidth` columns, or opened with
/// `T`). It takes only rows the panels below can spare, dropping the timeline's details, then
/// its legend, then the timeline, before it would starve the current plan.
enum StoryBand {
  /// Rows kept for the panels, footer and status under the band.
  static let rowsKeptBelow = 8

  /// Draws at `y` and returns the first row after the band.
  static func draw(_ vm: ViewModel, _ ui: UIState, into c: inout Canvas, y: Int, width: Int, height: Int) -> Int {
    guard vm.story != nil else { return y }
    let lines = self.lines(vm, ui, width: width, ascii: c.ascii, glyphs: c.glyphs, budget: height - y - rowsKeptBelow)
    var y = y
    for line in lines {
      if let title = line.title { c.rule(title, x: 0, y: y, width: width, highlighted: false) } else { c.draw(line.line, x: 0, y: y, width: width) }
      y += 1
    }
    return y
  }

  /// The band's rows within `budget`: a rule title or a line each.
  static func lines(_ vm: ViewModel, _ ui: UIState, width: Int, ascii: Bool, glyphs g: Glyphs, budget: Int) -> [(title: String?, line: Line)] {
    guard let story = vm.story, budget > 0 else { return [] }
    var summary = SummaryPanel.line(story.summary, glyphs: g).wrapped(width: width, maxLines: 2)
    if summary.count > 1, budget < 8 { summary = [summary[0]] }
    var out: [(title: String?, line: Line)] = summary.map { (nil, $0) }
    let shown = ui.timeline.isShown(width: width) || ui.timeline.focused
    guard shown, budget - out.count >= 5 else { return Array(out.prefix(budget)) }
    if let caveat = SummaryPanel.caveat(story.summary, glyphs: g), budget - out.count >= 7 { out.append((nil, caveat)) }
    let panel = TimelinePanel.lines(vm, ui, width: width, ascii: ascii, glyphs: g, focused: ui.timeline.focused)
    var rows = panel.lines
    // axis, lane, plans, marks are the picture; legend and details go first when rows run out.
    let room = budget - out.count - 1
    if rows.count > room { rows = Array(rows.prefix(max(4, room))) }
    if rows.count > room { return Array(out.prefix(budget)) }
    out.append((panel.title, .empty))
    out += rows.map { (nil, $0) }
    return out
  }
}
