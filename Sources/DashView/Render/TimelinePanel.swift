import DashModel
import CoreValues

/// The story as a picture: one lane from the first purchase to now (or the simulated clock),
/// each column a slice of time, drawn with a pattern or letter per kind of period so it reads
/// without colour; under it the plans, the moments (price and plan changes, refunds,
/// extensions), today, and, while focused, the cursor and the chosen period's details.
enum TimelinePanel {
  /// How a kind of period is drawn: Unicode pattern, ASCII letter, colour role, legend word.
  struct Look {
    let unicode: Character, ascii: Character, role: Role, word: String
  }

  static func look(_ kind: Timeline.Kind) -> Look {
    switch kind {
    case .paid: return Look(unicode: "█", ascii: "#", role: .ok, word: "paid")
    case .introductory: return Look(unicode: "▓", ascii: "i", role: .accent, word: "intro")
    case .offer: return Look(unicode: "▒", ascii: "o", role: .accent, word: "offer")
    case .free: return Look(unicode: "░", ascii: "f", role: .accent, word: "free")
    case .extended: return Look(unicode: "+", ascii: "+", role: .value, word: "extended")
    case .grace: return Look(unicode: "g", ascii: "g", role: .warn, word: "grace")
    case .billingRetry: return Look(unicode: "r", ascii: "r", role: .danger, word: "billing retry")
    case .revoked: return Look(unicode: "X", ascii: "X", role: .danger, word: "refunded/revoked")
    case .lapsed: return Look(unicode: "·", ascii: "-", role: .dim, word: "lapsed")
    case .unknown: return Look(unicode: "?", ascii: "?", role: .dim, word: "not in the file")
    }
  }

  static func markGlyph(_ kind: Timeline.Mark.Kind) -> (Character, String) {
    switch kind {
    case .priceChange: return ("$", "price")
    case .planChange: return ("c", "plan change")
    case .refundRequest: return ("?", "refund asked")
    case .refund: return ("F", "refund")
    case .refundDeclined: return ("D", "declined")
    case .refundReversed: return ("V", "reversed")
    case .renewalExtension: return ("e", "extension")
    }
  }

  /// When a column holds several kinds, the one that tells most wins: a day of billing retry
  /// inside a year of paid months must still show at a scale of years.
  static let precedence: [Timeline.Kind] = [.revoked, .billingRetry, .grace, .extended, .free, .introductory, .offer]

  /// The lane's columns: the kind each shows and the period it stands for (an index).
  static func columns(_ t: Timeline, width: Int, range: ClosedRange<Instant>) -> [(kind: Timeline.Kind, period: Int)?] {
    guard width > 0 else { return [] }
    let step = (range.upperBound - range.lowerBound).ms / Double(width)
    var out: [(kind: Timeline.Kind, period: Int)?] = Array(repeating: nil, count: width)
    var p = 0
    let periods = t.periods
    for col in 0..<width {
      let a = range.lowerBound.ms + step * Double(col), b = a + step
      while p < periods.count, periods[p].end.ms <= a { p += 1 }
      var q = p
      var best: (kind: Timeline.Kind, period: Int, overlap: Double, rank: Int)?
      while q < periods.count, periods[q].start.ms < b {
        let per = periods[q]
        let overlap = min(b, per.end.ms) - max(a, per.start.ms)
        let rank = precedence.firstIndex(of: per.kind) ?? precedence.count
        if overlap > 0, best.map({ rank < $0.rank || (rank == $0.rank && overlap > $0.overlap) }) ?? true {
          best = (per.kind, q, overlap, rank)
        }
        q += 1
      }
      out[col] = best.map { ($0.kind, $0.period) }
    }
    return out
  }

  static func column(of at: Instant, width: Int, range: ClosedRange<Instant>) -> Int? {
    let span = (range.upperBound - range.lowerBound).ms
    guard span > 0, at >= range.lowerBound, at <= range.upperBound else { return nil }
    return min(width - 1, Int((at - range.lowerBound).ms / span * Double(width)))
  }

  /// The panel's lines at `width`: axis, lane, plans, moments (and cursor), legend; then the
  /// chosen period while focused.
  /// `plain`: for `subdash show`, where no key works.
  static func lines(_ vm: ViewModel, _ ui: UIState, width: Int, ascii: Bool, glyphs g: Glyphs, focused: Bool, plain: Bool = false) -> (title: String, lines: [Line]) {
    guard let story = vm.story, let range = story.timeline.range, width >= 20 else {
      return ("Timeline", [Line("no subscription periods yet", Style(.dim))])
    }
    let t = story.timeline
    let cols = columns(t, width: width, range: range)
    let span = range.upperBound - range.lowerBound
    let title = "Timeline \(day(range.lowerBound, span)) \(g.dash) \(day(range.upperBound, span))  \(g.dot)  1 column \(ascii ? "~" : "≈") \(Format.span(span / Double(width)).compactScale)"

    // Lane: runs of the same kind share one span.
    var lane: [Run] = []
    for c in cols {
      let text: String, style: Style
      if let c {
        let l = look(c.kind)
        text = String(ascii ? l.ascii : l.unicode)
        style = Style(l.role)
      } else {
        text = " "
        style = .plain
      }
      if let last = lane.last, last.style == style { lane[lane.count - 1].text += text } else { lane.append(Run(text, style)) }
    }

    // Plans: the product's name where a run of it starts, as far as the run goes.
    var plans = [Character](repeating: " ", count: width)
    var col = 0
    while col < width {
      guard let c = cols[col], let product = t.periods[c.period].productId, c.kind != .lapsed else { col += 1; continue }
      var end = col + 1
      while end < width, let n = cols[end], n.kind != .lapsed, t.periods[n.period].productId == product { end += 1 }
      let name = planName(product, vm)
      if end - col >= 4 {
        for (k, ch) in Array(name.prefix(end - col - 1)).enumerated() { plans[col + k] = ch }
      }
      col = end
    }

    // Moments, then the cursor, then today on top: the row under the lane.
    var marks = [Character](repeating: " ", count: width)
    // Which moment each column shows, for the legend: a later one in the same column, the
    // cursor, today or its word hide it.
    var markKinds = [Timeline.Mark.Kind?](repeating: nil, count: width)
    for m in t.marks {
      if let x = column(of: m.at, width: width, range: range) {
        marks[x] = markGlyph(m.kind).0
        markKinds[x] = m.kind
      }
    }
    let nowGlyph: Character = ascii ? "^" : "▲"
    let cursorGlyph: Character = ascii ? "=" : "▔"
    var cursorPeriod: Int?
    if focused, let cur = ui.timeline.cursor, cur < t.periods.count {
      cursorPeriod = cur
      let p = t.periods[cur]
      let a = column(of: max(p.start, range.lowerBound), width: width, range: range) ?? 0
      let b = max(a, (column(of: min(p.end, range.upperBound), width: width, range: range) ?? width - 1) - (p.end < range.upperBound ? 1 : 0))
      for x in a...min(b, width - 1) {
        marks[x] = cursorGlyph
        markKinds[x] = nil
      }
    }
    // Today always shows; its word only where nothing else is drawn.
    var nowColumn: Int?
    if let x = column(of: t.now, width: width, range: range) {
      marks[x] = nowGlyph
      markKinds[x] = nil
      nowColumn = x
      let label = Array(vm.clock.simulated != nil && vm.clock.viewingAt == nil ? "simulated now" : "now")
      let start = x + 1 + label.count <= width ? x + 1 : x - label.count
      if start >= 0, (start..<(start + label.count)).allSatisfy({ marks[$0] == " " }) {
        for (k, ch) in label.enumerated() { marks[start + k] = ch }
      }
    }
    var markRuns: [Run] = []
    for (x, ch) in marks.enumerated() {
      let style: Style = ch == nowGlyph && x == nowColumn ? Style(.accent, bold: true)
        : ch == cursorGlyph && cursorPeriod != nil ? Style(.selection, bold: true) : Style(.label)
      if let last = markRuns.last, last.style == style { markRuns[markRuns.count - 1].text.append(ch) } else { markRuns.append(Run(String(ch), style)) }
    }

    var out = [axis(range, width: width), Line(lane), Line(String(plans), Style(.value)), Line(markRuns)]
    let drawn = Set(cols.compactMap { $0?.kind })
    var moments: [Timeline.Mark.Kind] = []
    for case let m? in markKinds where !moments.contains(m) { moments.append(m) }
    out.append(legend(kinds: drawn, marks: moments, ascii: ascii, g: g, keys: vm.story != nil && ui.mode == .browsing && !plain))
    if focused, let cur = cursorPeriod {
      out += details(story, t.periods[cur], index: cur, of: t.periods.count, vm, g: g)
    }
    return (title, out)
  }

  /// Dates along the top, one every dozen columns or so, at the scale's precision.
  static func axis(_ range: ClosedRange<Instant>, width: Int) -> Line {
    let span = range.upperBound - range.lowerBound
    var row = [Character](repeating: " ", count: width)
    var x = 0
    while x < width {
      let at = range.lowerBound + span * (Double(x) / Double(width))
      let label = Array("|" + day(at, span))
      if x + label.count > width { break }
      for (k, ch) in label.enumerated() { row[x + k] = ch }
      x += max(label.count + 2, 14)
    }
    return Line(String(row), Style(.dim))
  }

  /// A date at the precision the lane's scale needs: times within days, days within months.
  static func day(_ at: Instant, _ span: Span) -> String {
    if span.ms <= Span.days(3).ms { return Format.dateShort(at, seconds: span.ms < Span.hours(2).ms) }
    let d = Format.date(at)  // 2026-03-12 09:00 UTC
    return span.ms <= Span.days(800).ms ? String(d.prefix(10)) : String(d.prefix(7))
  }

  static func planName(_ productId: String, _ vm: ViewModel) -> String {
    guard let p = vm.state.catalog.product(productId) else { return productId }
    return "\(p.displayName) L\(p.level)"
  }

  /// What the lane and the moments row show, nothing else: `kinds` drawn in some column of the
  /// lane, `marks` left visible under it, left to right (a period or moment too small or hidden for this width
  /// would explain a letter that is not there).
  static func legend(kinds: Set<Timeline.Kind>, marks: [Timeline.Mark.Kind], ascii: Bool, g: Glyphs, keys: Bool) -> Line {
    var runs: [Run] = []
    for k in Timeline.Kind.allCases where kinds.contains(k) {
      let l = look(k)
      runs += [Run(String(ascii ? l.ascii : l.unicode), Style(l.role)), Run(" \(l.word)  ", Style(.dim))]
    }
    for m in marks {
      let (ch, word) = markGlyph(m)
      runs += [Run(String(ch), Style(.label, bold: true)), Run(" \(word)  ", Style(.dim))]
    }
    runs += [Run(ascii ? "^" : "▲", Style(.accent, bold: true)), Run(" now  ", Style(.dim))]
    if keys { runs += [Run("T", Style(.keyHint, bold: true)), Run(" choose a period", Style(.dim))] }
    return Line(runs)
  }

  /// The newest periods as text, one a line, for `subdash show` (`show --json` has them all).
  static let periodsListed = 24

  static func periodList(_ story: CustomerStory, _ vm: ViewModel, glyphs g: Glyphs) -> [String] {
    let periods = story.timeline.periods
    var out: [String] = [""]
    if periods.count > periodsListed { out.append("\(periods.count - periodsListed) earlier periods not listed (show --json has them all)") }
    for p in periods.suffix(periodsListed) {
      var line = "\(look(p.kind).word.padding(16)) \(Format.date(p.start)) \(g.dash) \(Format.date(p.end))"
      if let id = p.productId { line += "  \(planName(id, vm))" }
      if let t = p.transactionId { line += "  transaction \(t)" }
      out.append(line)
    }
    let marks = story.timeline.marks
    if !marks.isEmpty { out.append("") }
    for m in marks.suffix(periodsListed) {
      out.append("\(markGlyph(m.kind).0) \(Format.date(m.at))  \(m.text)")
    }
    return out
  }

  /// The chosen period: what it was, its transaction, and the notifications dated within it.
  static func details(_ story: CustomerStory, _ p: Timeline.Period, index: Int, of count: Int, _ vm: ViewModel, g: Glyphs) -> [Line] {
    let (t, events, more) = story.details(of: p, maxEvents: 3)
    var head = "\(g.pointer) \(index + 1)/\(count) \(look(p.kind).word)"
    if let id = p.productId { head += " \(g.dot) \(planName(id, vm))" }
    head += " \(g.dot) \(Format.date(p.start)) \(g.dash) \(Format.date(p.end))"
    var out = [Line(head, Style(.accent, bold: true))]
    if let t {
      var words = ["transaction \(t.transactionId ?? "?")"]
      if let price = t.price, let cur = t.currency { words.append(t.isFree ? "free" : Format.money(milliunits: price, currency: cur)) }
      if let o = t.offerType { words.append("offer \(o.description)" + (t.offerDiscountType.map { " (\($0.description))" } ?? "")) }
      if let r = t.revocationDate {
        words.append("revoked \(Format.date(r))" + (t.revocationType.map { " (\($0.description))" } ?? ""))
      }
      out.append(Line("  " + words.joined(separator: " \(g.dot) "), Style(.value)))
    }
    if events.isEmpty { out.append(Line("  no notifications in this period", Style(.dim))) }
    for e in events {
      let when = e.date.map { Format.date($0) } ?? "undated"
      out.append(Line([Run("  \(when)  ", Style(.dim)), Run(e.label, Style(.label, bold: true)), Run(e.summary.map { "  " + $0 } ?? "", Style(.plain))]))
    }
    if more > 0 { out.append(Line("  and \(more) more notifications in this period", Style(.dim))) }
    out.append(Line([Run("←/→", Style(.keyHint, bold: true)), Run(" period  ", Style(.dim)), Run("Home/End", Style(.keyHint, bold: true)),
                     Run(" first/last  ", Style(.dim)), Run("T/Esc", Style(.keyHint, bold: true)), Run(" leave", Style(.dim))]))
    return out
  }
}

private extension String {
  func padding(_ n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }

  /// `4d3h12m` → `4d`, `500ms` → `500ms`: the scale's first unit reads at a glance.
  var compactScale: String {
    var out = ""
    var inUnit = false
    for ch in self {
      if ch.isLetter { inUnit = true } else if inUnit { break }
      out.append(ch)
    }
    return out
  }
}
