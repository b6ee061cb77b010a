import DashModel
import CoreValues

/// Boxes drawn over the dashboard: help, confirmation, code entry, picker.
enum Overlays {
  static func draw(_ vm: ViewModel, _ ui: UIState, into c: inout Canvas) {
    switch ui.mode {
    case .retention(let sheet): RetentionOverlay.draw(sheet, vm, into: &c)
    case .browsing: return
    case .help(let offset): help(vm, ui, offset: offset, into: &c)
    case .confirming(let conf): confirm(conf, vm, into: &c)
    case .typingCode(let editor): code(editor, into: &c)
    case .searchingEvents(let editor): code(editor, title: "Search events", label: "Find: ", verb: "search", into: &c)
    case .picking(let picker): pick(vm, picker, into: &c)
    case .eventDetail(let offset): event(vm, selection: ui.eventSelection, offset: offset, into: &c)
    case .transactions: TransactionsOverlay.draw(vm, ui, into: &c)
    case .confirmingStep(let step): confirmStep(step, into: &c)
    }
  }

  // MARK: - Event detail

  /// Every field of one notification as the log keeps it, nested objects as dotted paths, and
  /// each date also in ISO 8601, so it can be compared with a server log or a decoded JWS.
  static func eventLines(_ vm: ViewModel, selection: Int) -> [Line] {
    guard let n = vm.event(at: selection) else { return [Line("no event selected", Style(.dim))] }
    var out = [Line(Sanitizer.clean(n.label), Style(.value, bold: true)), .empty]
    for (path, value) in flatten(n.json, path: "") {
      var text = value
      if path.hasSuffix("Date"), let ms = Double(value), ms.isFinite, abs(ms) < 1e15 { text += "  (\(Instant(ms: ms)))" }
      out += Line([Run(Sanitizer.clean(path) + ": ", Style(.label)), Run(Sanitizer.clean(text), Style(.value))])
        .wrapped(width: 70, maxLines: 6, indent: 4)
    }
    return out
  }

  private static func flatten(_ json: JSON, path: String) -> [(String, String)] {
    switch json {
    case .object(let o):
      return o.entries.flatMap { flatten($0.value, path: path.isEmpty ? $0.key : "\(path).\($0.key)") }
    case .array(let items):
      if items.isEmpty { return [(path, "[]")] }
      return items.enumerated().flatMap { flatten($1, path: "\(path)[\($0)]") }
    case .string(let s):
      return [(path, s)]
    default:
      return [(path, String(decoding: JSONWriter.write(json, pretty: false), as: UTF8.self))]
    }
  }

  private static func event(_ vm: ViewModel, selection: Int, offset: Int, into c: inout Canvas) {
    let lines = eventLines(vm, selection: selection)
    let r = centred(c, width: 76, lines: lines.count)
    let position = "Event \(selection + 1) of \(vm.eventsTotal)"
    scrolled(lines, in: r, title: lines.count > r.height - 2 ? "\(position) (PgDn/PgUp to scroll)" : position, offset: offset, into: &c)
  }

  /// Draws `lines` in the box `r` from `offset` (clamped so the last line can reach the bottom)
  /// and records how many lines there are and how many fit, which the reducer pages by.
  private static func scrolled(_ lines: [Line], in r: Rect, title: String, offset: Int, into c: inout Canvas) {
    c.box(r, title: title)
    let visible = r.height - 2
    c.frame.extents.overlayLines = lines.count
    c.frame.extents.overlayRows = visible
    let start = min(max(0, offset), max(0, lines.count - visible))
    for (i, line) in lines.dropFirst(start).prefix(visible).enumerated() {
      c.draw(line, x: r.x + 2, y: r.y + 1 + i, width: r.width - 4)
    }
  }

  /// A box of `lines`-many rows plus borders, centred, clipped to the screen with a margin.
  private static func centred(_ c: Canvas, width: Int, lines: Int) -> Rect {
    let w = min(c.frame.width - 2, width)
    let h = min(c.frame.height - 2, lines + 2)
    return Rect(x: (c.frame.width - w) / 2, y: max(1, (c.frame.height - h) / 2), width: w, height: h)
  }

  // MARK: - Help

  /// Every key with its description; unavailable ones are listed with the reason.
  static func helpLines(_ vm: ViewModel, _ ui: UIState, ascii: Bool) -> [Line] {
    var out: [Line] = []
    // The CHECK FILE banner has room for one warning; the rest are listed here, first.
    if vm.report.warnings.count > 1 {
      out.append(Line("Check file (\(counted(vm.report.warnings.count, "warning")))", Style(.title, bold: true)))
      let glyph = (ascii ? Glyphs.ascii : Glyphs.unicode).warn
      out += vm.report.warnings.flatMap { Line("\(glyph) \(Sanitizer.clean($0))", Style(.warn)).wrapped(width: 74, maxLines: 4, indent: 2) }
      out.append(.empty)
    }
    out.append(Line("Dashboard", Style(.title, bold: true)))
    func row(_ b: KeyBinding) -> Line {
      var line = Line([Run(PlansPanel.pad(b.label(ascii: ascii), 9), Style(.keyHint, bold: true)), Run(b.help)])
      if case .unavailable = Availability.of(b.command, in: vm, ui), b.command.isMutating {
        // The marker first: a narrow box cuts the end of a line, and "not now" is the news. In a
        // read-only session no state makes the key work: "read-only" says why, "not now" would not.
        let marker = vm.options.readOnly ? "read-only: " : "not now: "
        line = Line([Run(PlansPanel.pad(b.label(ascii: ascii), 9), Style(.dim)), Run(marker, Style(.dim)), Run(b.help, Style(.dim))])
      }
      return line
    }
    // The refresh key exists only for fetched files; others keep their help unchanged.
    let fetched = FetchOrigin(document: vm.state.document) != nil
    out += KeyMap.browsing.filter { !$0.help.isEmpty && ($0.command != .refetch || fetched) }.map(row)
    out.append(.empty)
    out.append(Line("Dialogs", Style(.title, bold: true)))
    out.append(Line([Run(PlansPanel.pad("y / n", 9), Style(.keyHint, bold: true)), Run("confirm / cancel the previewed action")]))
    out.append(Line([Run(PlansPanel.pad("Enter", 9), Style(.keyHint, bold: true)), Run("choose in a list; submit a code")]))
    out.append(Line([Run(PlansPanel.pad("Esc", 9), Style(.keyHint, bold: true)), Run("cancel; while typing a code every other key is text")]))
    out.append(.empty)
    out.append(Line("Simulation (test data only)", Style(.title, bold: true)))
    if vm.simulationKeysAllowed {
      out += KeyMap.simulation.filter { !$0.help.isEmpty }.map(row)
      // The settings the keys run under: the rate, armed failures and the other knobs.
      if let s = vm.simulation {
        out.append(.empty)
        out.append(Line("Simulation settings", Style(.title, bold: true)))
        out.append(Line([Run(PlansPanel.pad("rate", 9), Style(.label)), Run(s.rate ?? "real time")]))
        out.append(Line([Run(PlansPanel.pad("armed", 9), Style(.label)),
                         Run(s.armed.isEmpty ? "nothing: renewals succeed" : s.armed.joined(separator: ", "), Style(s.armed.isEmpty ? .plain : .warn))]))
        if !s.other.isEmpty { out.append(Line([Run(PlansPanel.pad("other", 9), Style(.label)), Run(s.other.joined(separator: ", "))])) }
      }
    } else {
      out.append(Line("disabled: this file holds Production data", Style(.dim)))
    }
    out.append(.empty)
    // The panels that are not keys: what the summary line and the timeline lane mean.
    out.append(Line("On screen", Style(.title, bold: true)))
    // Wrapped like the keys' width so the box stays as wide as the key lines.
    out += Line([Run(PlansPanel.pad("summary", 9), Style(.label)),
                 Run("customer since, paid periods, spent/refunded/net per currency, offers used, extensions in 365 days (of 2), streak; \"partial history\" when the file lacks some (figures are then lower bounds)")])
      .wrapped(width: 100, maxLines: 3, indent: 9)
    out += Line([Run(PlansPanel.pad("timeline", 9), Style(.label)),
                 Run("paid, free, offer, grace, retry, lapsed, revoked and extended periods across time, now marked; T opens it")])
      .wrapped(width: 100, maxLines: 2, indent: 9)
    // The status line is one row; here each message is whole, so none cut at the width is lost.
    if !ui.messages.entries.isEmpty {
      out.append(.empty)
      out.append(Line("Messages (newest first)", Style(.title, bold: true)))
      for m in ui.messages.entries {
        let glyph = ascii ? Glyphs.ascii.error : Glyphs.unicode.error
        out += Line(m.isError ? "\(glyph) \(m.message)" : m.message, Style(m.isError ? .danger : .plain))
          .wrapped(width: 74, maxLines: 6, indent: 2)
      }
    }
    return out
  }

  private static func help(_ vm: ViewModel, _ ui: UIState, offset: Int, into c: inout Canvas) {
    let lines = helpLines(vm, ui, ascii: c.ascii)
    // As wide as the longest sentence (with "not now: "), so wide terminals show every
    // description whole; `centred` clips it to narrow ones.
    let r = centred(c, width: max(78, (lines.map(\.width).max() ?? 0) + 4), lines: lines.count)
    scrolled(lines, in: r, title: lines.count > r.height - 2 ? "Keys (j/k to scroll)" : "Keys", offset: offset, into: &c)
  }

  // MARK: - PendingAction

  private static func confirm(_ conf: PendingAction, _ vm: ViewModel, into c: inout Canvas) {
    let width = min(c.frame.width - 2, 72)
    var text = Line(conf.preview.summary, Style(.value)).wrapped(width: width - 4, maxLines: max(1, c.frame.height - 6), indent: 0)
    // Side effects the sentence does not name (a code that cancels a pending downgrade).
    for also in conf.preview.also {
      text += Line("Also: \(also).", Style(.warn)).wrapped(width: width - 4, maxLines: 2, indent: 2)
    }
    // A Production file is someone's real subscription: say plainly that this only edits the file.
    if vm.environment == .production {
      text += Line("\(c.glyphs.warn) Production data: this changes the file only; the App Store has not done it.", Style(.warn))
        .wrapped(width: width - 4, maxLines: 2, indent: 0)
    }
    let r = centred(c, width: width, lines: text.count + 2)
    c.box(r, title: "Confirm")
    for (i, line) in text.prefix(r.height - 4).enumerated() { c.draw(line, x: r.x + 2, y: r.y + 1 + i, width: r.width - 4) }
    let prompt = Line([Run("y", Style(.keyHint, bold: true)), Run(" confirm   "), Run("n", Style(.keyHint, bold: true)), Run(" cancel")])
    c.draw(prompt, x: r.x + 2, y: r.maxY - 2, width: r.width - 4)
  }

  /// A long clock step: how many events it applies, before any is written.
  private static func confirmStep(_ step: PendingStep, into c: inout Canvas) {
    let width = min(c.frame.width - 2, 72)
    let text = LongStepText.confirmation(step).flatMap { Line($0, Style(.value)).wrapped(width: width - 4, maxLines: 4, indent: 0) }
    let r = centred(c, width: width, lines: text.count + 2)
    c.box(r, title: "Long step")
    for (i, line) in text.prefix(r.height - 4).enumerated() { c.draw(line, x: r.x + 2, y: r.y + 1 + i, width: r.width - 4) }
    let prompt = Line([Run("y", Style(.keyHint, bold: true)), Run(" go ahead   "), Run("n", Style(.keyHint, bold: true)), Run(" cancel")])
    c.draw(prompt, x: r.x + 2, y: r.maxY - 2, width: r.width - 4)
  }

  // MARK: - Code entry

  private static func code(_ editor: LineEditor, title: String = "Redeem offer code", label: String = "Code: ", verb: String = "redeem", into c: inout Canvas) {
    let r = centred(c, width: 60, lines: 2)
    c.box(r, title: title)
    let fieldX = r.x + 2 + label.count
    let fieldWidth = max(1, r.x + r.width - 2 - fieldX)
    c.draw(label, Style(.label), x: r.x + 2, y: r.y + 1, width: label.count)
    c.frame.fill(x: fieldX, y: r.y + 1, width: fieldWidth, height: 1, style: Style(.value, reverse: true))
    // Scroll the field so the cursor stays inside it.
    let scalars = editor.scalars.map { c.fold(String(Character($0))) }
    var start = 0
    func columns(_ from: Int, _ to: Int) -> Int { scalars[from..<to].reduce(0) { $0 + DisplayWidth.of($1) } }
    while columns(start, editor.cursor) > fieldWidth - 1 { start += 1 }
    var x = fieldX
    for s in scalars[start...] {
      let w = DisplayWidth.of(s)
      if x + w > fieldX + fieldWidth { break }
      x += c.frame.put(s, x: x, y: r.y + 1, style: Style(.value, reverse: true))
    }
    c.frame.cursor = (fieldX + columns(start, editor.cursor), r.y + 1)
    let hint = Line([Run("Enter", Style(.keyHint, bold: true)), Run(" \(verb)   "), Run("Esc", Style(.keyHint, bold: true)), Run(" cancel")])
    if r.height > 3 { c.draw(hint, x: r.x + 2, y: r.y + 2, width: r.width - 4) }
  }

  // MARK: - Picker

  private static func pick(_ vm: ViewModel, _ picker: Picker, into c: inout Canvas) {
    let g = c.glyphs
    let currency = PlanText.currency(vm)
    // Narrow boxes give each item two rows: its name, then what choosing it would do.
    let perItem = min(c.frame.width - 2, 76) < 60 ? 2 : 1
    // The buy list holds plans only; what else the catalog sells is said under it, not offered.
    let note = picker.kind == .buy ? OtherProductsText.buyNote(vm.state.catalog) : nil
    let noteRows = note == nil ? 0 : 1
    let r = centred(c, width: 76, lines: picker.items.count * perItem + 1 + noteRows)
    c.box(r, title: picker.kind.title)
    let visible = max(1, (r.height - 3 - noteRows) / perItem)
    let start = picker.selection >= visible ? picker.selection - visible + 1 : 0
    for (row, i) in (start..<min(picker.items.count, start + visible)).enumerated() {
      let item = picker.items[i]
      let selected = i == picker.selection
      let (effect, ok) = PlanText.pickerEffect(of: item.action, vm, currency: currency, compact: perItem == 2)
      let name = Line([Run("\(selected ? g.pointer : " ") ", Style(.accent, bold: true)), Run(item.title, Style(.value, bold: selected))])
      var lines = perItem == 1 ? [name + Line("  \(effect)", Style(ok ? .plain : .dim))] : [name, Line("    \(effect)", Style(ok ? .plain : .dim))]
      if selected { lines = lines.map { $0.styled { $0.reverse = true } } }
      for (k, line) in lines.enumerated() { c.draw(line, x: r.x + 1, y: r.y + 1 + row * perItem + k, width: r.width - 2) }
    }
    if let note, r.height > 4 { c.draw(Line(note, Style(.dim)), x: r.x + 2, y: r.maxY - 3, width: r.width - 4) }
    let hint = Line([Run("Enter", Style(.keyHint, bold: true)), Run(" choose   "), Run("Esc", Style(.keyHint, bold: true)), Run(" cancel")])
    c.draw(hint, x: r.x + 2, y: r.maxY - 2, width: r.width - 4)
  }
}
