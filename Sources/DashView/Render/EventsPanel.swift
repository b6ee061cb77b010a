import DashModel
import CoreValues

/// The notification log, newest first: date, TYPE / SUBTYPE, summary. Wide panels give each
/// event one row; narrow ones (a side column) give it two: the type, then date and summary.
enum EventsPanel {
  /// How many notifications the subscriber has in all (inline log plus journal), not only the
  /// ones loaded: `show --events 3` and the dashboard name the same number.
  static func total(_ vm: ViewModel) -> Int {
    max(vm.state.historySummary.notificationCount, vm.notifications.count)
  }

  /// "Recent events (12)"; "Recent events (12, newest 3)" when fewer are listed.
  static func title(_ vm: ViewModel) -> String {
    let all = total(vm)
    // Paged from the whole log (the dashboard): every event is reachable, so only the total is said.
    let listed = vm.eventsPage.total == nil ? vm.notifications.count : max(all, vm.eventsTotal)
    let counts = all > listed && listed > 0 ? "\(all), newest \(listed)" : "\(max(all, listed))"
    // Delivery's own counts, so a backend developer sees at once whether everything arrived.
    let delivery = vm.state.document.deliveries.map { ", " + DeliveryText.summary($0) } ?? ""
    return "Recent events (\(counts)\(delivery))"
  }

  /// One entry per notification (each one or two lines), or a single entry saying why none is.
  static func entries(_ vm: ViewModel, _ ui: UIState, width: Int) -> [[Line]] {
    guard !vm.notifications.isEmpty else {
      let all = total(vm)
      let text = all == 0 ? "no notifications yet" : "none listed (\(all) in the log; --events 0 asked for none)"
      return [[Line(text, Style(.dim))]]
    }
    // At fast simulation rates different moments share a minute; then every date shows its
    // seconds, so the log still reads as a timeline. (Events of one instant need no seconds.)
    let instants = Set(vm.notifications.compactMap { $0.signedDate?.ms })
    let seconds = Set(instants.map { ($0 / 60_000).rounded(.down) }).count < instants.count
    // Without a year, June of last year reads as if it came after April of this one.
    let thisYear = vm.now.utcYear
    let year = instants.contains { Instant(ms: $0).utcYear != thisYear }
    let dateWidth = (year ? 16 : 12) + (seconds ? 3 : 0)
    let longest = vm.notifications.map { DisplayWidth.of(Sanitizer.clean($0.label)) }.max() ?? 0
    let oneRow = width - dateWidth - 2 >= 56  // 80 columns keep one row per event even with years and seconds
    // Labels take what the summary can spare (it keeps 26 columns), at least 36: at 200 columns
    // `DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED` is whole.
    let labelWidth = min(longest, width >= PlainReport.unlimitedWidth ? Int.max : max(36, width - dateWidth - 4 - 26))
    let newestChanged = ui.highlights.isHighlighted(.events, at: vm.clock.wall)
    let book = vm.state.document.deliveries
    return vm.notifications.enumerated().map { i, n in
      let mark = DeliveryText.mark(for: n, book, wall: vm.clock.wall)
      let date = n.signedDate.map { Format.dateShort($0, seconds: seconds, year: year) } ?? PlansPanel.pad("(no date)", dateWidth)
      let summary = n.summary ?? n.productId
      var lines: [Line]
      if oneRow {
        let label = PlansPanel.pad(fit(n, width: labelWidth, ellipsis: vm.options.ascii ? Glyphs.ascii.ellipsis : Glyphs.unicode.ellipsis), labelWidth)
        var line = Line([Run(date, Style(.dim)), Run("  "), Run(label, Style(.value))])
        if let mark { line = line + Line([Run("  "), mark]) }
        if let summary { line = line + Line("  " + summary) }
        lines = [line]
      } else {
        var second = Line([Run("  "), Run(date, Style(.dim))])
        if let summary { second = second + Line("  " + summary) }
        var first = Line(n.label, Style(.value))
        if let mark { first = first + Line([Run("  "), mark]) }
        lines = [first, second]
      }
      if i == 0 && vm.eventsPage.offset == 0 && newestChanged { lines = lines.map { $0.styled { $0.role = .changed } } }
      return lines
    }
  }

  /// "TYPE / SUBTYPE" in `width` columns. The subtype is what tells AUTO_RENEW_ENABLED from
  /// AUTO_RENEW_DISABLED, so when the label is too long the type is shortened, not the subtype:
  /// `DID_CHANGE_RE… / AUTO_RENEW_DISABLED`.
  /// `ellipsis` is the glyph set's, so ASCII mode cuts with "..." in the same columns.
  static func fit(_ n: NotificationRecord, width: Int, ellipsis: String = Glyphs.unicode.ellipsis) -> String {
    let full = Sanitizer.clean(n.label)
    guard DisplayWidth.of(full) > width, let subtype = n.subtype else { return Sanitizer.truncate(full, to: width, ellipsis: ellipsis) }
    let tail = " / " + Sanitizer.clean(subtype.rawValue)
    let room = width - DisplayWidth.of(tail)
    guard room >= 6 else { return Sanitizer.truncate(full, to: width, ellipsis: ellipsis) }
    return Sanitizer.truncate(n.notificationType.rawValue, to: room, ellipsis: ellipsis) + tail
  }
}
