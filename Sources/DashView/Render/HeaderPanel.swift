import DashModel

/// Two lines: product name, environment badge and file on the left, the clocks on the right;
/// the subscriber's identifiers below.
enum HeaderPanel {
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
    if let token = sub.latestTransaction?.appAccountToken ?? sub.renewalInfo?.appAccountToken {
      ids += [Run(dot, Style(.dim)), Run("appAccountToken ", Style(.label)), Run(token, Style(.value))]
    }

    // Both clocks use one format: full dates when the left side keeps 30 columns, short dates
    // when it keeps 20, none on narrower screens (the badge must stay visible).
    var clocks = clockLines(vm, short: false)
    if r.width - clocks.map(\.width).max()! - 2 < 30 { clocks = clockLines(vm, short: true) }
    if r.width - clocks.map(\.width).max()! - 2 < 20 { clocks = [.empty, .empty] }
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
  }

  /// `name` in `width` columns, cut at the front. A labelled path, "demo (/tmp/…/demo.json)",
  /// keeps its label and cuts the path inside the parentheses.
  static func shortened(_ name: String, to width: Int, ellipsis: String) -> String {
    let clean = Sanitizer.clean(name)
    guard DisplayWidth.of(clean) > width else { return clean }
    if clean.hasSuffix(")"), let paren = clean.firstIndex(of: "("), paren > clean.startIndex,
       clean[clean.index(before: paren)] == " " {
      let label = String(clean[..<clean.index(before: paren)])
      let path = String(clean[clean.index(after: paren)..<clean.index(before: clean.endIndex)])
      let room = width - DisplayWidth.of(label) - 3
      if room >= 8 { return "\(label) (\(Sanitizer.truncateLeading(path, to: room, ellipsis: ellipsis)))" }
    }
    return Sanitizer.truncateLeading(clean, to: width, ellipsis: ellipsis)
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
  private static func clockLines(_ vm: ViewModel, short: Bool) -> [Line] {
    // Seconds at a fast simulated rate: there a minute of the clock holds hours of subscription time.
    func fmt(_ t: Instant) -> String { Format.clock(t, seconds: vm.clockShowsSeconds, short: short) }
    let label = Style(.label)
    if let at = vm.clock.viewingAt {
      return [
        Line([Run("at ", label), Run(fmt(at), Style(.accent, bold: true))]), .empty,
      ]
    }
    guard let sim = vm.clock.simulated else {
      return [Line([Run("now ", label), Run(fmt(vm.clock.wall), Style(.value))]), simulationLine(vm, short: short)]
    }
    return [
      Line([Run("sim ", label), Run(fmt(sim), Style(.accent, bold: true))]), simulationLine(vm, short: short),
    ]
  }

  /// Under the clock: the simulated rate and any failure armed for coming renewals (`f`,
  /// `--fail-renewals`, a failure rate), so "every renewal fails" is on screen before it
  /// happens; `?` lists every setting. Empty at real time with nothing armed.
  static func simulationLine(_ vm: ViewModel, short: Bool) -> Line {
    var runs: [Run] = []
    if vm.simulatorRunning != nil { runs.append(Run(short ? "simulating" : "simulate running", Style(.accent, bold: true))) }
    guard let s = vm.simulation else { return Line(runs) }
    if !runs.isEmpty && (s.rate != nil || !s.armed.isEmpty) { runs.append(Run("  ")) }
    if s.rate != nil { runs += [Run("rate ", Style(.label)), Run("\(s.speedup)x", Style(.value))] }
    if !s.armed.isEmpty {
      if !runs.isEmpty { runs.append(Run("  ")) }
      runs.append(Run(short ? "armed: \(s.armed.count)" : "armed: " + s.armed.joined(separator: ", "), Style(.warn, bold: true)))
    }
    return Line(runs)
  }
}
