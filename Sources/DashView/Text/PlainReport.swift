import DashModel
import CoreValues

/// `subdash show`: the dashboard's information as plain lines with no terminal control, for a
/// support ticket or a script. It reuses the dashboard's own panels, so the words in a ticket are
/// the words on screen; only the layout differs (sections one after another, nothing truncated).
public enum PlainReport {
  /// The width panels are laid out at for a report: wide enough that nothing is cut, and the
  /// panels' own column caps (plan names, event labels) are lifted at it. A ticket wants whole
  /// sentences.
  static let unlimitedWidth = 1_000
  /// The timeline's lane in a report: as wide as a wide terminal, still readable in a ticket.
  static let timelineWidth = 100

  public static func lines(_ vm: ViewModel, ascii: Bool = false) -> [String] {
    let g: Glyphs = ascii ? .ascii : .unicode
    let ui = UIState()  // a report has no dialogs, highlights or file error: only the file
    let width = unlimitedWidth
    var out: [String] = []
    let t = vm.state.subscriber.latestTransaction
    var who = "originalTransactionId " + (t?.originalTransactionId ?? vm.state.subscriber.originalTransactionId ?? "(none)")
    if let token = t?.appAccountToken { who += "  appAccountToken \(token)" }
    if let previous = PreviousOriginalTransaction.id(of: vm.state.subscriber) { who += "  previousOriginalTransactionId \(previous)" }
    out.append("SubDash \(HeaderPanel.badge(vm))  \(vm.fileName)")
    out.append(who)
    if let app = AppTransactionText.sentence(vm, dot: g.dot) { out.append(app) }
    if let at = vm.clock.viewingAt {
      out.append("clock: viewed at \(Format.date(at)) (--now); wall \(Format.date(vm.clock.wall))")
    } else if let sim = vm.clock.simulated {
      out.append("clock: simulated \(Format.date(sim)); wall \(Format.date(vm.clock.wall))")
    } else {
      out.append("clock: \(Format.date(vm.clock.wall))")
    }
    out += BannerPanel.lines(vm, ui, glyphs: g, compact: false, moreWarnings: "see Warnings below").map(\.text)
    out.append(BannerPanel.access(vm, ui, glyphs: g).text)
    if let story = vm.story {
      // The customer in numbers, one fact a line, and the timeline at a ticket's width.
      var facts = SummaryPanel.facts(story.summary, glyphs: g).map(\.text)
      if let caveat = SummaryPanel.caveat(story.summary, glyphs: g) { facts.append(caveat.text) }
      section("Customer", facts, into: &out)
      let timeline = TimelinePanel.lines(vm, ui, width: timelineWidth, ascii: ascii, glyphs: g, focused: false, plain: true)
      section(timeline.title, timeline.lines.map(\.text) + TimelinePanel.periodList(story, vm, glyphs: g), into: &out)
    }
    section("Current plan", PlanPanel.lines(vm, ui, glyphs: g, compact: false).map(\.text), into: &out)
    section(PlansPanel.title(vm), PlansPanel.lines(vm, ui, width: width, glyphs: g).map(\.text), into: &out)
    section("Win-back offers", WinBackPanel.lines(vm, ui, glyphs: g).map(\.text), into: &out)
    let others = OtherStoresPanel.lines(vm)
    if !others.isEmpty { section(OtherStoresPanel.title, others.map(\.text), into: &out) }
    if vm.report.warnings.count > 1 {
      section("Warnings", vm.report.warnings.map { "\(g.warn) \($0)" }, into: &out)
    }
    let finished = TransactionsOverlay.finishedLines(vm)
    if !finished.isEmpty { section("Finished by the developer's server (Finish Transaction)", finished, into: &out) }
    let events = EventsPanel.entries(vm, ui, width: width).map { $0.map(\.text).joined(separator: " ") }
    section(EventsPanel.title(vm), events.isEmpty ? ["(none)"] : events, into: &out)
    // `--ascii` spells every glyph and separator in ASCII (`3 x 1 month`), as the dashboard does.
    return out.map { trimTrailing(ascii ? AsciiFold.fold($0) : Sanitizer.clean($0)) }
  }

  private static func section(_ title: String, _ lines: [String], into out: inout [String]) {
    out.append("")
    out.append("== \(title) ==")
    out += lines
  }

  private static func trimTrailing(_ s: String) -> String {
    var s = s
    while s.hasSuffix(" ") { s.removeLast() }
    return s
  }
}
