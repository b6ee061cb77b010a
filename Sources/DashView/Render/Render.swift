import DashModel

/// The smallest screen the dashboard lays out; below it a one-line message is shown instead.
public let minimumScreen = (width: 40, height: 12)

/// Draws the whole screen for `vm` in `ui`'s mode at `width`×`height` cells.
///
/// Steps: header, banners and access verdict at the top; footer and status at the bottom; the
/// panels in between (two columns from 120 wide), dropping events, then win-back, then plans,
/// then detail lines when rows run out; then the mode's overlay, which may place the cursor.
public func render(_ vm: ViewModel, _ ui: UIState, width: Int, height: Int) -> Frame {
  guard width >= minimumScreen.width, height >= minimumScreen.height else {
    var c = Canvas(width: width, height: height, ascii: vm.options.ascii)
    let message = Line("Terminal too small: need \(minimumScreen.width)x\(minimumScreen.height), have \(width)x\(height)", Style(.warn, bold: true))
    for (y, line) in message.wrapped(width: width, maxLines: height, indent: 0).enumerated() { c.draw(line, x: 0, y: y, width: width) }
    return c.frame
  }
  var c = Canvas(width: width, height: height, ascii: vm.options.ascii)
  let g = c.glyphs
  var y = HeaderPanel.height(vm)
  HeaderPanel.draw(vm, ui, into: &c, Rect(x: 0, y: 0, width: width, height: y))

  // Alarms first; each may take two lines but never starves the plan.
  let wrap = 2
  let bannerBudget = max(1, height - 8)
  let banners = BannerPanel.lines(vm, ui, glyphs: g, compact: width < 60).flatMap { $0.wrapped(width: width, maxLines: wrap) }
  for line in banners.prefix(bannerBudget) {
    c.draw(line, x: 0, y: y, width: width)
    y += 1
  }
  for line in BannerPanel.access(vm, ui, glyphs: g).wrapped(width: width, maxLines: width < 80 ? 2 : 1) {
    c.draw(line, x: 0, y: y, width: width)
    y += 1
  }
  // The customer summary, and the timeline when it is on screen (`StoryBand`).
  y = StoryBand.draw(vm, ui, into: &c, y: y, width: width, height: height)

  // The panels, in one column or two (from 120 wide). The left column keeps close to the
  // 80-column design; events take the rest, which at this width is still room for a date, a
  // full TYPE / SUBTYPE label and a summary. Past 100 columns the plan's sentences are whole.
  let twoColumns = width >= Layout.twoColumnWidth
  let leftWidth = twoColumns ? max(80, min(100, width * 11 / 20)) : width
  let columns: [(x: Int, width: Int, sections: [Layout.Section])] = twoColumns
    ? [(0, leftWidth, Layout.sections(vm, ui, width: leftWidth, glyphs: g, include: [.plan, .plans, .winBack, .otherStores])),
       (leftWidth + 3, width - leftWidth - 3, Layout.sections(vm, ui, width: width - leftWidth - 3, glyphs: g, include: [.events]))]
    : [(0, width, Layout.sections(vm, ui, width: width, glyphs: g, include: [.plan, .plans, .winBack, .otherStores, .events]))]

  // A long status message wraps onto rows the panels leave blank (up to 4 rows), so it is read
  // whole instead of cut at the edge; it never takes a row a panel needs.
  let fullBody = height - 2 - y
  let spareRows = max(0, fullBody - (columns.map { Layout.fullRows($0.sections) }.max() ?? 0))
  let status = FooterPanel.status(vm, ui, glyphs: g).wrapped(width: width, maxLines: 1 + min(3, spareRows))
  let body = Rect(x: 0, y: y, width: width, height: fullBody - (status.count - 1))
  for column in columns {
    Layout.stack(column.sections, in: Rect(x: column.x, y: body.y, width: column.width, height: body.height), ui: ui, into: &c)
  }
  if twoColumns { for yy in body.y..<body.maxY { c.draw(g.vertical, Style(.border), x: leftWidth + 1, y: yy, width: 1) } }

  c.draw(FooterPanel.line(vm, ui, width: width, glyphs: g, ascii: c.ascii), x: 0, y: body.maxY, width: width)
  for (i, line) in status.enumerated() { c.draw(line, x: 0, y: body.maxY + 1 + i, width: width) }
  Overlays.draw(vm, ui, into: &c)
  return c.frame
}
