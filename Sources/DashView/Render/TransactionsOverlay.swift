import DashModel
import CoreValues

/// The transactions view (`t`): every transaction of the history, newest first, one row each on
/// a wide screen and two on a narrow one, the chosen one marked with the pointer and reversed
/// (so it reads without colour). What a row says: id, product, PURCHASE/RENEWAL, price and
/// currency, the offer, the period, and the revocation when there is one.
enum TransactionsOverlay {
  static func draw(_ vm: ViewModel, _ ui: UIState, into c: inout Canvas) {
    let rows = TransactionsKeys.rows(vm)
    let r = Rect(x: 1, y: 1, width: max(2, c.frame.width - 2), height: max(2, c.frame.height - 2))
    let inner = max(1, r.width - 4)
    let selection = TransactionsKeys.clamp(ui.transactions.selection, rows.count)
    // Only the rows that can be on screen are formatted and measured: a long history has 100,000,
    // and formatting them all made every key in this view take half a second. The columns fit
    // the rows shown (with one line per row, the most that fit), so they line up on screen.
    let finished = finishedDates(vm)
    let mostRows = max(1, r.height - 3)
    let window = self.window(selection: selection, visible: mostRows, count: rows.count)
    let entries = window.map { cells(rows[$0], vm, finished: finished) }
    // One line each when every row fits the width, else two (so columns stay aligned).
    let widths = ColumnWidths(entries)
    let oneLine = widths.oneLine + 2 <= inner
    let perRow = oneLine ? 1 : 2
    var heading = "\(counted(rows.count, "transaction")), newest first"
    if vm.story == nil { heading += " (the latest only: the history is still being read)" }
    if let previous = PreviousOriginalTransaction.id(of: vm.state.subscriber) {
      heading += "; replaces subscription \(Sanitizer.clean(previous)) (previousOriginalTransactionId)"
    }
    c.box(r, title: rows.isEmpty ? "Transactions" : "Transactions: \(selection + 1) of \(rows.count)")
    c.draw(Line(heading, Style(.dim)), x: r.x + 2, y: r.y + 1, width: inner)
    let visible = max(1, (r.height - 3) / perRow)
    c.frame.extents.overlayLines = rows.count
    c.frame.extents.overlayRows = visible
    // Inside `window` (as many or fewer rows, ending at the cursor or starting at the top).
    let shown = self.window(selection: selection, visible: visible, count: rows.count)
    var y = r.y + 2
    for k in shown where window.contains(k) {
      let chosen = k == selection
      for (n, line) in lines(entries[k - window.lowerBound], widths: widths, oneLine: oneLine).enumerated() {
        // The pointer marks the chosen row without colour; its second line is the same row.
        let marker = chosen && n == 0 ? c.glyphs.pointer + " " : "  "
        let drawn = Line([Run(marker)] + line.spans).styled { if chosen { $0.reverse = true } }
        if chosen { c.frame.fill(x: r.x + 2, y: y, width: inner, height: 1, style: Style(.plain, reverse: true)) }
        c.draw(drawn, x: r.x + 2, y: y, width: inner)
        y += 1
      }
    }
  }

  /// A row's texts, each with its style.
  struct Cells {
    var id: String, product: String, reason: String, price: String, offer: String, period: String
    var revocation: String?
    /// "finished 2026-03-02 12:00": the developer's server called Finish Transaction for it.
    var finished: String?
  }

  /// The rows on screen for `visible` rows with the cursor at `selection`: from the top while
  /// the cursor is on the first screen, then ending at the cursor.
  static func window(selection: Int, visible: Int, count: Int) -> Range<Int> {
    let top = selection >= visible ? selection - visible + 1 : 0
    return top..<min(count, top + visible)
  }

  /// `finished`: `finishedDates(vm)`, read once per frame by the caller.
  static func cells(_ t: StoryTransaction, _ vm: ViewModel, finished: [String: Instant]) -> Cells {
    let seconds = vm.clockShowsSeconds
    func date(_ i: Instant?) -> String { i.map { Format.dateShort($0, seconds: seconds, year: true) } ?? "?" }
    let product = t.productId.map { vm.state.catalog.product($0)?.displayName ?? $0 } ?? "(no productId)"
    let price: String
    if let p = t.price { price = p == 0 && t.isFree ? "free" : Money.format(p, currency: t.currency) } else { price = t.isFree ? "free" : "price ?" }
    return Cells(
      id: Sanitizer.clean(t.transactionId ?? "(no transactionId)"), product: Sanitizer.clean(product),
      reason: t.transactionReason.map { $0.description } ?? "", price: Sanitizer.clean(price), offer: offer(t),
      period: "\(date(t.purchaseDate)) → \(date(t.expiresDate))", revocation: revocation(t, date: date),
      finished: finished[t.transactionId ?? ""].map { "finished \(date($0))" })
  }

  /// When the developer's server finished each transaction (`serve` records Finish Transaction).
  static func finishedDates(_ vm: ViewModel) -> [String: Instant] {
    Dictionary(FinishedTransactions.read(vm.state.document).map { ($0.transactionId, $0.finishedDate) }) { first, _ in first }
  }

  /// `show`'s lines for the finished transactions, oldest call first.
  static func finishedLines(_ vm: ViewModel) -> [String] {
    FinishedTransactions.read(vm.state.document).map {
      "\(Sanitizer.clean($0.transactionId)) finished \(Format.dateShort($0.finishedDate, seconds: vm.clockShowsSeconds, year: true))"
    }
  }

  /// "intro free trial", "code SPRING pay as you go": the offer's kind, id and how it is paid.
  static func offer(_ t: StoryTransaction) -> String {
    guard let type = t.offerType else { return "" }
    let kind: String
    switch type {
    case .introductory: kind = "intro"
    case .promotional: kind = "promo"
    case .offerCode: kind = "code"
    case .winBack: kind = "win-back"
    default: kind = type.description
    }
    return Sanitizer.clean([kind, t.offerIdentifier, t.offerDiscountType?.description].compactMap { $0 }.joined(separator: " "))
  }

  /// "REFUNDED 2026-03-02 12:00 (full, another reason)", or nil when not revoked.
  static func revocation(_ t: StoryTransaction, date: (Instant?) -> String) -> String? {
    guard let r = t.revocationDate else { return nil }
    let how: String
    switch t.revocationType {
    case .refundProrated?: how = "prorated \(t.revocationPercentage.map { Format.milliPercent($0) } ?? "?")"
    case .familyRevoke?: return "REVOKED \(date(r)) (Family Sharing)"
    case .refundFull?: how = "full"
    default: how = t.revocationType?.description ?? "revoked"
    }
    let why = t.revocationReason.map { ", \($0.rawValue == 1 ? "issue in the app" : "other reason")" } ?? ""
    return "REFUNDED \(date(r)) (\(how)\(why))"
  }

  struct ColumnWidths {
    var id = 0, product = 0, reason = 0, price = 0, offer = 0, period = 0
    init(_ all: [Cells]) {
      for e in all {
        id = max(id, DisplayWidth.of(e.id))
        product = max(product, min(28, DisplayWidth.of(e.product)))
        reason = max(reason, DisplayWidth.of(e.reason))
        price = max(price, DisplayWidth.of(e.price))
        offer = max(offer, min(32, DisplayWidth.of(e.offer)))
        period = max(period, DisplayWidth.of(e.period))
      }
      revocation = all.map { $0.revocation.map { DisplayWidth.of($0) } ?? 0 }.max() ?? 0
      finished = all.map { $0.finished.map { DisplayWidth.of($0) } ?? 0 }.max() ?? 0
    }
    var revocation = 0, finished = 0
    var oneLine: Int { [id, product, reason, price, offer, period, revocation, finished].filter { $0 > 0 }.reduce(0) { $0 + $1 + 2 } }
  }

  static func lines(_ e: Cells, widths w: ColumnWidths, oneLine: Bool) -> [Line] {
    func cell(_ text: String, _ width: Int, _ style: Style) -> [Run] {
      guard width > 0 else { return [] }
      return [Run(PlansPanel.pad(Sanitizer.truncate(text, to: width, ellipsis: "…"), width), style), Run("  ")]
    }
    let first = cell(e.id, w.id, Style(.value, bold: true)) + cell(e.product, w.product, Style(.value))
      + cell(e.reason, w.reason, Style(.label)) + cell(e.price, w.price, Style(.value)) + cell(e.offer, w.offer, Style(.accent))
    let revoked = (e.revocation.map { [Run($0, Style(.danger, bold: true)), Run("  ")] } ?? [])
      + (e.finished.map { [Run($0, Style(.dim))] } ?? [])
    if oneLine { return [Line(first + cell(e.period, w.period, Style(.plain)) + revoked)] }
    return [Line(first), Line([Run("  ")] + cell(e.period, w.period, Style(.plain)) + revoked)]
  }
}
