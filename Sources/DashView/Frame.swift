/// One cell of the screen: a single-column grapheme and its style.
///
/// Wide graphemes (CJK, emoji) occupy two cells: the first holds the text, the second is a
/// `continuation` cell that backends skip. That keeps column arithmetic exact.
public struct Cell: Hashable, Sendable {
  public var text: String
  public var style: Style
  public var isContinuation: Bool

  public init(_ text: String = " ", style: Style = .plain, isContinuation: Bool = false) {
    self.text = text
    self.style = style
    self.isContinuation = isContinuation
  }

  public static let blank = Cell()
}

/// A frame is the whole screen as a value: rendering produces one, tests snapshot it as text,
/// and only the terminal backend turns it into ncurses calls (diffing against the previous frame).
public struct Frame: Equatable, Sendable {
  public let width: Int
  public let height: Int
  public private(set) var cells: [Cell]
  /// Where the terminal cursor should be shown (for text input), or nil to hide it.
  public var cursor: (x: Int, y: Int)? {
    get { cursorStorage.map { ($0[0], $0[1]) } }
    set { cursorStorage = newValue.map { [$0.x, $0.y] } }
  }
  private var cursorStorage: [Int]?
  /// What this frame showed of the scrollable parts, for the reducer's paging (`.laidOut`).
  /// Not part of equality: two frames that look the same are the same frame.
  public var extents = ScrollExtents()

  public init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    self.cells = Array(repeating: .blank, count: self.width * self.height)
  }

  public subscript(x: Int, y: Int) -> Cell {
    get { cells[y * width + x] }
    set { cells[y * width + x] = newValue }
  }

  /// Writes `text` at (x, y), clipped to `maxWidth` columns and the frame edge.
  /// Text is sanitized here too, so no caller can smuggle control characters to the terminal.
  /// Returns the number of columns written.
  @discardableResult
  public mutating func put(_ text: String, x: Int, y: Int, style: Style = .plain, maxWidth: Int? = nil) -> Int {
    guard y >= 0, y < height, x < width else { return 0 }
    let limit = min(width, x + (maxWidth ?? width))
    var col = x
    for g in Sanitizer.clean(text) {
      let w = DisplayWidth.of(g)
      if w == 0 { continue }
      if col + w > limit { break }
      if col >= 0 {
        self[col, y] = Cell(String(g), style: style)
        if w == 2 { self[col + 1, y] = Cell("", style: style, isContinuation: true) }
      }
      col += w
    }
    return max(0, col - x)
  }

  /// Fills a rectangle with one style (and blanks), e.g. a banner background.
  public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, style: Style) {
    for yy in max(0, y)..<min(height, y + h) {
      for xx in max(0, x)..<min(width, x + w) { self[xx, yy] = Cell(" ", style: style) }
    }
  }

  /// Applies a style to existing cells without changing their text (e.g. "changed" highlight).
  public mutating func restyle(x: Int, y: Int, width w: Int, _ transform: (inout Style) -> Void) {
    guard y >= 0, y < height else { return }
    for xx in max(0, x)..<min(width, x + w) { transform(&self[xx, y].style) }
  }

  /// The text of each row, trailing blanks trimmed (the way `tmux capture-pane` shows it).
  public var lines: [String] {
    (0..<height).map { y in
      var s = ""
      for x in 0..<width where !self[x, y].isContinuation { s += self[x, y].text }
      while s.hasSuffix(" ") { s.removeLast() }
      return s
    }
  }

  public var textDump: String { lines.joined(separator: "\n") + "\n" }

  /// Style runs per row, only where the style is not plain: `y x1-x2 tag`. Reviews well in diffs.
  public var styleDump: String {
    var out: [String] = []
    for y in 0..<height {
      var x = 0
      while x < width {
        let style = self[x, y].style
        var end = x
        while end + 1 < width && self[end + 1, y].style == style { end += 1 }
        if style != .plain { out.append("\(y) \(x)-\(end) \(style.tag)") }
        x = end + 1
      }
    }
    return out.joined(separator: "\n") + "\n"
  }

  public static func == (a: Frame, b: Frame) -> Bool {
    a.width == b.width && a.height == b.height && a.cells == b.cells && a.cursorStorage == b.cursorStorage
  }
}
