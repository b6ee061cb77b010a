import DashModel
import CoreValues

/// Two lines: product name, environment badge and file on the left, the clocks on the right;
/// the subscriber's identifiers below; a third, the app transaction, when `fetch` recorded one.
enum HeaderPanel {
  /// Rows the header takes: a file without an app transaction keeps the two-line header.
  static func height(_ vm: ViewModel) -> Int { FetchedAppTransaction(document: vm.state.document) == nil ? 2 : 3 }

  static func draw(_ vm: ViewModel, _ ui: UIState, into c: inout Canvas, _ r: Rect) {
    let dot = " \(c.glyphs.dot) "
    var left = Line("SubDash", Style(.title, bold: true)) + Line(" ")
    left = left + Line(badge(vm), Style(.badge, bold: true, reverse: true))
    if vm.options.readOnly { left = left + Line(" ") + Line("[read-only]", Style(.badge, bold: true)) }
    left = left + Line("  ")
    let hl = ui.highlights.isHighlighted(.environment, at: vm.clock.wall)
    if hl { left = left.styled { if $0.role == .badge { $0.role = .changed } } }

    var ids: [Run] = []
    let sub = vm.state.subscriber
    if let otid = sub.originalTransactionId {
      ids += [Run("originalTransactionId ", Style(.label)), Run(otid, Style(.value))]
    } else {
      ids += [Run("no transaction yet", Style(.dim))]
    }
    // Another customer since the last reload: the ids that say whose screen this is light up.
    if ui.highlights.isHighlighted(.subscriber, at: vm.clock.wall) {
      ids = ids.map { var r = $0; if r.style.role == .value { r.style.role = .changed }; return r }
    }
    if let token = sub.latestTransaction?.appAccountToken ?? sub.renewalInfo?.appAccountToken {
      ids += [Run(dot, Style(.dim)), Run("appAccountToken ", Style(.label)), Run(token, Style(.value))]
    }

    // Both clocks use one format: full dates when the left side keeps 30 columns, short dates
    // when it keeps 20, none on narrower screens (the badge must stay visible).
    // The armed line's "(S: off)" hint goes first when room is short: what is armed matters more.
    var clocks = clockLines(vm, short: false)
    if r.width - clocks.map(\.width).max()! - 2 < 30 { clocks = clockLines(vm, short: false, undoHint: false) }
    if r.width - clocks.map(\.width).max()! - 2 < 30 { clocks = clockLines(vm, short: true) }
    if r.width - clocks.map(\.width).max()! - 2 < 20 { clocks = [.empty, .empty] }
    // A file name that would be cut gets the room of the clock's year first, when that is
    // what it takes to show the name whole.
    let nameWidth = essentialWidth(vm.fileName)
    if clocks[0].width > 0, r.width - left.width - clocks[0].width - 2 < nameWidth {
      let short = clockLines(vm, short: true)
      if r.width - left.width - short[0].width - 2 >= nameWidth, r.width - short.map(\.width).max()! - 2 >= 20 { clocks = short }
    }
    // A long path loses its front, not the file name: "…/Examples/grace-period.json".
    let clockWidth = clocks[0].width
    let nameRoom = r.width - left.width - (clockWidth > 0 ? clockWidth + 2 : 0)
    // Below a few columns no part of a name says anything; leave the room to the badge and clock.
    if nameRoom >= 8 {
      left = left + Line(shortened(vm.fileName, to: nameRoom, ellipsis: c.glyphs.ellipsis), Style(.value))
    }
    for (i, leftLine) in [left, Line(ids)].enumerated() where i < r.height {
      let y = r.y + i
      let right = clocks[i]
      let rightWidth = right.width
      c.draw(leftLine, x: r.x, y: y, width: r.width - (rightWidth > 0 ? rightWidth + 2 : 0))
      if rightWidth > 0 { c.drawRight(right, x: r.x, y: y, width: r.width) }
    }
    if r.height > 2, let app = AppTransactionText.sentence(vm, dot: c.glyphs.dot) {
      c.draw(Line(app, Style(.dim)), x: r.x, y: r.y + 2, width: r.width)
    }
  }

  /// `name` in `width` columns, cut at the front. A labelled path, "demo (/tmp/…/demo.json)",
  /// keeps its label and cuts the path inside the parentheses. A path with a note,
  /// "x.jws (imported, not saved)", loses the note before the file name (the badges say it too);
  /// a file name alone too long keeps its start and extension, never only "…jws".
  static func shortened(_ name: String, to width: Int, ellipsis: String) -> String {
    let clean = Sanitizer.clean(name)
    guard DisplayWidth.of(clean) > width else { return clean }
    var path = clean
    if clean.hasSuffix(")"), let paren = clean.firstIndex(of: "("), paren > clean.startIndex,
       clean[clean.index(before: paren)] == " " {
      let label = String(clean[..<clean.index(before: paren)])
      let inside = String(clean[clean.index(after: paren)..<clean.index(before: clean.endIndex)])
      if inside.contains("/") {
        let room = width - DisplayWidth.of(label) - 3
        if room >= 8 { return "\(label) (\(Sanitizer.truncateLeading(inside, to: room, ellipsis: ellipsis)))" }
      } else {
        let note = " (\(inside))"
        if DisplayWidth.of(baseName(label) + note) + 1 <= width {
          return Sanitizer.truncateLeading(label, to: width - DisplayWidth.of(note), ellipsis: ellipsis) + note
        }
        path = label
      }
    }
    let base = baseName(path)
    if DisplayWidth.of(base) + 1 <= width || DisplayWidth.of(path) <= width {
      return Sanitizer.truncateLeading(path, to: width, ellipsis: ellipsis)
    }
    return middleCut(base, to: width, ellipsis: ellipsis)
  }

  /// The columns a name needs to show its file name whole: "…" and the base name, without a
  /// note such as " (imported, not saved)".
  static func essentialWidth(_ name: String) -> Int {
    var path = Sanitizer.clean(name)
    if path.hasSuffix(")"), let paren = path.lastIndex(of: "("), paren > path.startIndex,
       path[path.index(before: paren)] == " ", !path[paren...].contains("/") {
      path = String(path[..<path.index(before: paren)])
    }
    let base = baseName(path)
    return DisplayWidth.of(base) + (base == path ? 0 : 1)
  }

  private static func baseName(_ path: String) -> String {
    path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
  }

  /// "xcode_xcode-sig….jws": the start says which file, the end what kind.
  private static func middleCut(_ name: String, to width: Int, ellipsis: String) -> String {
    let ext = name.lastIndex(of: ".").map { String(name[$0...]) } ?? ""
    let tail = DisplayWidth.of(ext) <= 8 ? ext : ""
    var head = ""
    for ch in name {
      if DisplayWidth.of(head + String(ch)) + DisplayWidth.of(ellipsis) + DisplayWidth.of(tail) > width { break }
      head.append(ch)
    }
    guard !head.isEmpty else { return Sanitizer.truncateLeading(name, to: width, ellipsis: ellipsis) }
    return head + ellipsis + tail
  }

  /// "[Sandbox]", "[Production]", or "[no environment]" when the file names none.
  static func badge(_ vm: ViewModel) -> String {
    // An imported file says where its data came from and whether it was proven Apple's.
    if let p = vm.state.importProvenance { return "[\(p.badge(ascii: vm.options.ascii))]" }
    return "[\(vm.environment?.rawValue ?? "no environment")]"
  }

  /// The moment the screen is derived at: the `--now` moment ("at"), simulated time ("sim"), or
  /// the wall clock ("now") when the file keeps no clock. Only that one is shown: a wall clock
  /// beside a fixed moment would be the one thing on screen that moves, waking an idle
  /// dashboard every minute for a time the terminal already shows (docs/benchmarks-dashboard.md,
  /// idle cost). `subdash show` still prints the wall time, as the moment of the capture.
  private static func clockLines(_ vm: ViewModel, short: Bool, undoHint: Bool = true) -> [Line] {
    // Seconds at a fast simulated rate: there a minute of the clock holds hours of subscription time.
    func fmt(_ t: Instant) -> String { Format.clock(t, seconds: vm.clockShowsSeconds, short: short) }
    let label = Style(.label)
    if let at = vm.clock.viewingAt {
      return [
        Line([Run("at ", label), Run(fmt(at), Style(.accent, bold: true))]), .empty,
      ]
    }
    guard let sim = vm.clock.simulated else {
      return [Line([Run("now ", label), Run(fmt(vm.clock.wall), Style(.value))]), simulationLine(vm, short: short, undoHint: undoHint)]
    }
    return [
      Line([Run("sim ", label), Run(fmt(sim), Style(.accent, bold: true))]), simulationLine(vm, short: short, undoHint: undoHint),
    ]
  }

  /// Under the clock: the simulated rate and any failure armed for coming renewals (`f`,
  /// `--fail-renewals`, a failure rate), so "every renewal fails" is on screen before it
  /// happens; `?` lists every setting. Empty at real time with nothing armed.
  static func simulationLine(_ vm: ViewModel, short: Bool, undoHint: Bool = true) -> Line {
    var runs: [Run] = []
    if vm.simulatorRunning != nil { runs.append(Run(short ? "simulating" : "simulate running", Style(.accent, bold: true))) }
    guard let s = vm.simulation else { return Line(runs) }
    if !runs.isEmpty && (s.rate != nil || !s.armed.isEmpty) { runs.append(Run("  ")) }
    if s.rate != nil { runs += [Run("rate ", Style(.label)), Run("\(s.speedup)x", Style(.value))] }
    if !s.armed.isEmpty {
      if !runs.isEmpty { runs.append(Run("  ")) }
      runs.append(Run(short ? "armed: \(s.armed.count)" : "armed: " + s.armed.joined(separator: ", "), Style(.warn, bold: true)))
      // How to undo it, where it is announced: a developer who pressed f or passed
      // --fail-renewals should not have to edit the file to get renewals back.
      if undoHint { runs.append(Run(short ? " (S off)" : " (S: off)", Style(.label))) }
    }
    return Line(runs)
  }
}
