import DashModel

/// Eligible win-back offers best first, or the rule that makes none eligible.
enum WinBackPanel {
  static func lines(_ vm: ViewModel, _ ui: UIState, glyphs g: Glyphs) -> [Line] {
    let wb = vm.report.winBack
    var out: [Line]
    if wb.eligible.isEmpty && wb.unconfiguredIds.isEmpty {
      out = [Line([Run("none: ", Style(.label)), Run(wb.whyNone ?? "no offer is eligible", Style(.dim))])]
    } else {
      let currency = PlanText.currency(vm)
      out = wb.eligible.enumerated().map { i, o in
        var spans = [
          Run("\(i + 1). ", Style(.label)), Run(o.referenceName, Style(.value, bold: i == 0)),
          Run(" \(g.dash) \(PlanText.winBackProduct(o, vm.state.catalog)): \(PlanText.winBackTerms(o, currency: currency))", Style(.value)),
        ]
        if o.priority == .high { spans.append(Run("  high priority", Style(.dim))) }
        return Line(spans)
      }
      // Offer IDs Apple lists that no catalog or state file configures: shown by ID.
      out += wb.unconfiguredIds.enumerated().map { i, id in
        Line([Run("\(wb.eligible.count + i + 1). ", Style(.label)), Run(id, Style(.value)), Run("  not in the catalog", Style(.dim))])
      }
    }
    // SubDash lacked the history for its own rules and shows Apple's eligibleWinBackOfferIds.
    if wb.source == .apple {
      out.insert(Line([Run("Apple's list, best first (history incomplete)", Style(.dim))]), at: 0)
    }
    if ui.highlights.isHighlighted(.winBack, at: vm.clock.wall) { out = out.map { $0.styled { $0.role = .changed } } }
    return out
  }
}
