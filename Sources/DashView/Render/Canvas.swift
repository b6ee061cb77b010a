/// A rectangle of the screen, in cells.
struct Rect: Equatable, Sendable {
  var x: Int, y: Int, width: Int, height: Int
  var maxY: Int { y + height }
}

/// The frame being drawn plus the glyph set: every piece of text goes through `draw`, which folds
/// to ASCII when asked, sanitizes (inside `Frame.put`) and truncates with an ellipsis.
struct Canvas {
  var frame: Frame
  let glyphs: Glyphs
  let ascii: Bool

  init(width: Int, height: Int, ascii: Bool) {
    frame = Frame(width: width, height: height)
    self.ascii = ascii
    glyphs = ascii ? .ascii : .unicode
  }

  /// Draws `line` at (x, y) within `width` columns; text that does not fit ends in an ellipsis.
  /// Returns the columns used.
  @discardableResult
  mutating func draw(_ line: Line, x: Int, y: Int, width: Int) -> Int {
    guard width > 0, y >= 0, y < frame.height else { return 0 }
    let spans = line.spans.map { Run(fold($0.text), $0.style) }
    let total = spans.reduce(0) { $0 + DisplayWidth.of($1.text) }
    var col = x
    if total <= width {
      for s in spans { col += frame.put(s.text, x: col, y: y, style: s.style, maxWidth: x + width - col) }
      return col - x
    }
    // Truncate: fill up to width minus the ellipsis, then append it in the last span's style.
    let budget = width - DisplayWidth.of(glyphs.ellipsis)
    var lastStyle = Style.plain
    for s in spans {
      let room = x + budget - col
      if room <= 0 { break }
      let piece = Sanitizer.truncate(s.text, to: room, ellipsis: "")
      col += frame.put(piece, x: col, y: y, style: s.style, maxWidth: room)
      lastStyle = s.style
      if DisplayWidth.of(piece) < DisplayWidth.of(s.text) { break }
    }
    if budget >= 0 { col += frame.put(glyphs.ellipsis, x: col, y: y, style: lastStyle, maxWidth: x + width - col) }
    return col - x
  }

  mutating func draw(_ text: String, _ style: Style = .plain, x: Int, y: Int, width: Int) {
    draw(Line(text, style), x: x, y: y, width: width)
  }

  /// Right-aligns `line` so it ends at column `x + width`.
  mutating func drawRight(_ line: Line, x: Int, y: Int, width: Int) {
    let w = min(width, DisplayWidth.of(fold(line.text)))
    draw(line, x: x + width - w, y: y, width: w)
  }

  /// A section rule: `── Title ─────────` (ASCII `-- Title ---------`).
  mutating func rule(_ title: String, x: Int, y: Int, width: Int, highlighted: Bool = false) {
    let h = glyphs.horizontal
    let border = Style(.border)
    draw(Line(String(repeating: h, count: max(0, width)), border), x: x, y: y, width: width)
    guard width > 6 else { return }
    let label = Line(" \(title) ", Style(highlighted ? .changed : .title, bold: true))
    draw(label, x: x + 2, y: y, width: width - 3)
  }

  /// A box with a title on its top border. Its rows are cleared across the whole screen, so
  /// half-covered dashboard text never peeks out beside it.
  mutating func box(_ r: Rect, title: String) {
    guard r.width >= 2, r.height >= 2 else { return }
    let g = glyphs
    let border = Style(.border)
    frame.fill(x: 0, y: r.y, width: frame.width, height: r.height, style: .plain)
    let inner = String(repeating: g.horizontal, count: r.width - 2)
    draw(Line(g.topLeft + inner + g.topRight, border), x: r.x, y: r.y, width: r.width)
    draw(Line(g.bottomLeft + inner + g.bottomRight, border), x: r.x, y: r.maxY - 1, width: r.width)
    for yy in (r.y + 1)..<(r.maxY - 1) {
      draw(Line(g.vertical, border), x: r.x, y: yy, width: 1)
      draw(Line(g.vertical, border), x: r.x + r.width - 1, y: yy, width: 1)
    }
    if r.width > 6 { draw(Line(" \(title) ", Style(.title, bold: true)), x: r.x + 2, y: r.y, width: r.width - 4) }
  }

  /// In ASCII mode every character is spelled in plain ASCII (`AsciiFold`), so the screen never
  /// depends on UTF-8 support.
  func fold(_ text: String) -> String { ascii ? AsciiFold.fold(text) : text }
}
