import DashModel

/// The key hints valid right now, and the status line.
enum FooterPanel {
  static func hints(_ vm: ViewModel, _ ui: UIState, glyphs g: Glyphs, ascii: Bool) -> [(key: String, hint: String)] {
    switch ui.mode {
    case .retention(let sheet):
      return [("k", "keep")] + (sheet.accept == nil ? [] : [("a", "take it")]) + [("c", "cancel subscription")]
    case .browsing:
      var bindings = KeyMap.browsing.filter { !$0.hint.isEmpty && $0.command != .quit }
      if vm.simulationKeysAllowed { bindings += KeyMap.simulation }
      let available = bindings.filter { Availability.of($0.command, in: vm, ui).isAvailable }
      // The keys this state calls for lead, after `?` (in grace `R` before `o`); the rest keep
      // the table's order. A narrow footer drops from the end, so the urgent ones go last.
      let urgent = [.help] + urgentCommands(vm, available: available.map(\.command))
      let ordered = available.filter { urgent.contains($0.command) }.sorted {
        urgent.firstIndex(of: $0.command)! < urgent.firstIndex(of: $1.command)!
      } + available.filter { !urgent.contains($0.command) }
      return ordered.map { ($0.label(ascii: ascii), $0.hint) }
    case .help: return [("j/k", "scroll"), ("Esc", "close")]
    case .confirming: return [("y", "confirm"), ("n", "cancel")]
    case .confirmingStep: return [("y", "go ahead"), ("n", "cancel")]
    case .typingCode: return [("Enter", "redeem"), ("Esc", "cancel"), (g.leftRight, "move"), ("Backspace", "delete")]
    case .searchingEvents: return [("Enter", "search"), ("Esc", "cancel"), (g.leftRight, "move"), ("Backspace", "delete")]
    case .picking: return [("j/k \(g.upDown)", "move"), ("Enter", "choose"), ("Esc", "cancel")]
    case .eventDetail: return [("j/k", "older/newer event"), ("PgDn/PgUp", "scroll"), ("Esc", "close")]
    case .transactions:
      let refunds: [(key: String, hint: String)] = TransactionsKeys.refundRefusal(vm) == nil ? [("F", "refund"), ("%", "prorated")] : []
      return [("j/k \(g.upDown)", "move")] + refunds + [("y", "copy"), ("Esc", "close")]
    }
  }

  /// The commands that answer the state on screen, most pressing first: a billing problem's
  /// resolution, a pending consent or Ask to Buy, a pending refund request, a lapsed customer's
  /// ways back. Only ever a reordering of keys already available.
  static func urgentCommands(_ vm: ViewModel, available: [Command]) -> [Command] {
    var out: [Command] = []
    switch vm.report.status {
    case .billingGracePeriod?, .billingRetry?: out += [.simulate(.resolveBillingIssue), .simulate(.expireNow)]
    case .expired?, .revoked?, nil: out += [.buy, .winBack, .redeemCode]
    default: break
    }
    out += [.simulate(.consentPriceIncrease), .simulate(.declinePriceIncrease),
            .simulate(.approveAskToBuy), .simulate(.declineAskToBuy)]
    // A refund request waits for an answer: F approves it, D declines it.
    if available.contains(.simulate(.declineRefund)) { out += [.simulate(.refund), .simulate(.declineRefund)] }
    return out
  }

  /// Hints that fit, in order; while browsing "q quit" is always kept at the end.
  static func line(_ vm: ViewModel, _ ui: UIState, width: Int, glyphs g: Glyphs, ascii: Bool) -> Line {
    let items = hints(vm, ui, glyphs: g, ascii: ascii)
    let tail: [(key: String, hint: String)] = ui.mode == .browsing ? [("q", "quit")] : []
    func spans(_ item: (key: String, hint: String)) -> [Run] {
      [Run(item.key, Style(.keyHint, bold: true)), Run(" " + item.hint, Style(.dim))]
    }
    func cost(_ item: (key: String, hint: String)) -> Int { DisplayWidth.of(item.key) + 1 + DisplayWidth.of(item.hint) + 2 }
    var budget = width - tail.reduce(0) { $0 + cost($1) }
    var out: [Run] = []
    // A hint that does not fit is skipped, not a reason to hide the shorter ones after it.
    for item in items where cost(item) <= budget {
      out += spans(item) + [Run("  ")]
      budget -= cost(item)
    }
    for item in tail { out += spans(item) }
    return Line(out)
  }

  static func status(_ vm: ViewModel, _ ui: UIState, glyphs g: Glyphs) -> Line {
    if let s = ui.status {
      return s.isError ? Line("\(g.error) \(s.message)", Style(.danger, bold: true)) : Line(s.message, Style(.accent))
    }
    if let reason = vm.options.readOnlyReason { return Line(reason.sessionLine, Style(.dim)) }
    return .empty
  }
}
