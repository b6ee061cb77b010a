import DashModel
import CoreValues

/// The customer in numbers, one line of facts (wrapped where there is room): customer since, paid
/// periods, money per currency, offers, extensions, refund requests and the current streak. A
/// history that does not go back to the first purchase says so, and its counts read "at least".
enum SummaryPanel {
  static func line(_ s: CustomerSummary, glyphs g: Glyphs) -> Line {
    var runs: [Run] = []
    for (i, f) in facts(s, glyphs: g).enumerated() {
      if i > 0 { runs.append(Run("  \(g.dot)  ", Style(.dim))) }
      runs += f.spans
    }
    return Line(runs)
  }

  /// Each fact on its own (`subdash show` lists them one a line).
  static func facts(_ s: CustomerSummary, glyphs g: Glyphs) -> [Line] {
    let atLeast = s.complete ? "" : "≥"
    var parts: [[Run]] = []
    func fact(_ label: String, _ value: String, _ role: Role = .value) {
      parts.append([Run(label + " ", Style(.label)), Run(value, Style(role))])
    }
    if !s.complete { parts.append([Run("\(g.warn) partial history", Style(.warn, bold: true))]) }
    fact("customer since", s.customerSince.map { Format.dateShort($0, year: true) } ?? "never subscribed")
    fact("paid periods", atLeast + "\(s.paidPeriods)")
    fact("spent", money(s.spent, prefix: atLeast))
    if !s.refunded.isEmpty { fact("refunded", money(s.refunded, prefix: atLeast), .warn) }
    if !s.refunded.isEmpty { fact(s.complete ? "net" : "net of what is known", money(s.net, prefix: "")) }
    if !s.unsummable.isEmpty { fact("too large to sum", s.unsummable.joined(separator: ", "), .danger) }
    let o = s.offers
    let offers = [("intro", o.introductory), ("code", o.offerCode), ("promo", o.promotional), ("win-back", o.winBack)]
      .filter { $0.1 > 0 }.map { "\($0.0) \($0.1)" }
    fact("offers", offers.isEmpty ? "none" : offers.joined(separator: ", "))
    fact("extensions", "\(s.extensionsInWindow) of \(CustomerSummary.extensionsAllowed) in 365 days",
         s.extensionsInWindow >= CustomerSummary.extensionsAllowed ? .warn : .value)
    let r = s.refunds
    if r.requested + r.granted + r.declined + r.reversed > 0 {
      var words = ["\(r.requested) asked", "\(r.granted) refunded"]
      if r.declined > 0 { words.append("\(r.declined) declined") }
      if r.reversed > 0 { words.append("\(r.reversed) reversed") }
      if r.pending > 0 { words.append("\(r.pending) pending") }
      fact("refunds", words.joined(separator: ", "), r.pending > 0 ? .warn : .value)
    }
    if let st = s.streak {
      fact("streak", "\(atLeast)\(st.paidPeriods) paid since \(Format.dateShort(st.since, year: true))", .ok)
    } else if s.customerSince != nil {
      fact("streak", "none (not subscribed now)", .dim)
    }
    return parts.map(Line.init)
  }

  /// The reason the figures are lower bounds, for a line of its own where there is room.
  static func caveat(_ s: CustomerSummary, glyphs g: Glyphs) -> Line? {
    s.incompleteReason.map { Line("\(g.warn) figures are lower bounds: \($0)", Style(.warn)) }
  }

  /// "23.97 USD + 5 EUR"; "0" when nothing was paid.
  static func money(_ list: [CustomerSummary.Amount], prefix: String) -> String {
    guard !list.isEmpty else { return prefix + "0" }
    return prefix + list.map { Format.money(milliunits: $0.milliunits, currency: $0.currency) }.joined(separator: " + ")
  }
}
