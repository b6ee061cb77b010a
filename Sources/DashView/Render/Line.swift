/// A run of text in one style (not to be confused with DashModel's time `Span`).
struct Run: Equatable, Sendable {
  var text: String
  var style: Style
  init(_ text: String, _ style: Style = .plain) {
    self.text = text
    self.style = style
  }
}

/// One screen line before it is placed: styled spans that the canvas clips to a width.
struct Line: Equatable, Sendable {
  var spans: [Run]
  init(_ spans: [Run]) { self.spans = spans }
  init(_ text: String, _ style: Style = .plain) { spans = [Run(text, style)] }
  static let empty = Line([])

  var text: String { spans.map(\.text).joined() }
  var width: Int { DisplayWidth.of(Sanitizer.clean(text)) }

  /// The same line with every span restyled (e.g. `changed` highlight).
  func styled(_ transform: (inout Style) -> Void) -> Line {
    Line(spans.map { s in var s = s; transform(&s.style); return s })
  }

  static func + (a: Line, b: Line) -> Line { Line(a.spans + b.spans) }

  /// Word-wraps into at most `maxLines` lines of `width` columns, keeping styles. Continuation
  /// lines are indented by `indent`. The last line is truncated by the canvas if text remains.
  func wrapped(width: Int, maxLines: Int, indent: Int = 2) -> [Line] {
    guard width > indent + 4, maxLines > 1, self.width > width else { return [self] }
    // Split into words that remember their style, then fill greedily.
    var words: [[Run]] = [[]]
    for span in spans {
      for (i, piece) in span.text.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
        if i > 0 { words.append([]) }
        if !piece.isEmpty { words[words.count - 1].append(Run(String(piece), span.style)) }
      }
    }
    var lines: [Line] = []
    var current: [Run] = []
    var used = 0
    for word in words {
      let w = word.reduce(0) { $0 + DisplayWidth.of(Sanitizer.clean($1.text)) }
      let limit = lines.isEmpty ? width : width - indent
      if used > 0, used + 1 + w > limit, lines.count < maxLines - 1 {
        lines.append(Line(current))
        current = [Run(String(repeating: " ", count: indent))]
        used = 0
      }
      if used > 0 { current.append(Run(" ", word.first?.style ?? .plain)); used += 1 }
      current += word
      used += w
    }
    lines.append(Line(current))
    return lines
  }
}
