import Foundation
import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues

/// The transactions view (`t`): every transaction of the history, a cursor, and a refund of the
/// chosen one previewed and confirmed like every action; `y` copies it.
@Suite struct TransactionsViewTests {
  /// active.json: five transactions, the latest one current (Sandbox, so refunds are allowed).
  static func viewModel(_ options: DisplayOptions = DisplayOptions()) -> ViewModel {
    StoryRenderTests.viewModel(Scenarios.example("active"), options: options)
  }

  static func press(_ keys: [Key], _ vm: ViewModel, width: Int = 120, height: Int = 40) -> (UIState, [UIEffect]) {
    var ui = UIState()
    _ = reduce(&ui, .resized(width: width, height: height), context: vm)
    var effects: [UIEffect] = []
    for k in keys { effects = reduce(&ui, .keyPressed(k), context: vm) }
    return (ui, effects)
  }

  @Test func tOpensTheViewNewestFirstAndTheCursorMoves() {
    let vm = Self.viewModel()
    let rows = TransactionsKeys.rows(vm)
    #expect(rows.count == 5)
    #expect(rows.first?.transactionId == vm.state.subscriber.latestTransaction?.transactionId)
    var (ui, _) = Self.press([.char("t")], vm)
    #expect(ui.mode == .transactions)
    #expect(ui.transactions.selection == 0)
    for k: Key in [.char("j"), .down, .char("j")] { _ = reduce(&ui, .keyPressed(k), context: vm) }
    #expect(ui.transactions.selection == 3)
    _ = reduce(&ui, .keyPressed(.char("G")), context: vm)
    #expect(ui.transactions.selection == 4)
    _ = reduce(&ui, .keyPressed(.down), context: vm)
    #expect(ui.transactions.selection == 4)
    _ = reduce(&ui, .keyPressed(.char("k")), context: vm)
    #expect(ui.transactions.selection == 3)
    _ = reduce(&ui, .keyPressed(.escape), context: vm)
    #expect(ui.mode == .browsing)
  }

  @Test func fOnAnEarlierTransactionPreviewsRefundingThatOneAndYAppliesIt() {
    let vm = Self.viewModel()
    let earlier = TransactionsKeys.rows(vm)[2]
    let (ui, _) = Self.press([.char("t"), .char("j"), .char("j"), .char("F")], vm)
    guard case .confirming(let pending) = ui.mode else {
      Issue.record("no confirmation: \(ui.mode) \(String(describing: ui.status))")
      return
    }
    #expect(pending.action == .refundTransaction(transactionId: earlier.transactionId!, prorated: false))
    #expect(pending.preview.summary.contains("Refund transaction \(earlier.transactionId!)"))
    #expect(pending.preview.summary.contains("Only this transaction is revoked"))
    var confirmed = ui
    let effects = reduce(&confirmed, .keyPressed(.char("y")), context: vm)
    #expect(effects == [.perform(.refundTransaction(transactionId: earlier.transactionId!, prorated: false))])
    // Back in the view, on the same transaction, to see it revoked once the file reloads.
    #expect(confirmed.mode == .transactions)
    #expect(confirmed.transactions.selection == 2)
    var cancelled = ui
    #expect(reduce(&cancelled, .keyPressed(.char("n")), context: vm).isEmpty)
    #expect(cancelled.mode == .transactions)
  }

  @Test func fOnTheLatestSaysAccessEnds() {
    let vm = Self.viewModel()
    let (ui, _) = Self.press([.char("t"), .char("F")], vm)
    guard case .confirming(let pending) = ui.mode else {
      Issue.record("no confirmation: \(String(describing: ui.status))")
      return
    }
    #expect(pending.preview.summary.contains("current period's: access ends now"))
  }

  @Test func refundsAreRefusedReadOnlyAndOnProduction() {
    let readOnly = Self.viewModel(DisplayOptions(readOnly: true))
    let (ui, effects) = Self.press([.char("t"), .char("F")], readOnly)
    #expect(ui.mode == .transactions && effects.isEmpty)
    #expect(ui.status?.message.hasPrefix("read-only") == true)
    let production = StoryRenderTests.viewModel(Scenarios.example("refunded"))
    let (p, _) = Self.press([.char("t"), .char("%")], production)
    #expect(p.mode == .transactions)
    #expect(p.status?.message.contains("Production") == true)
  }

  @Test func yCopiesTheChosenTransaction() {
    let vm = Self.viewModel()
    let chosen = TransactionsKeys.rows(vm)[1]
    let (ui, effects) = Self.press([.char("t"), .char("j"), .char("y")], vm)
    guard case .copyToClipboard(let text)? = effects.first else {
      Issue.record("nothing copied: \(effects)")
      return
    }
    #expect(text.hasPrefix("{") && text.contains("\"transactionId\":\"\(chosen.transactionId!)\""))
    // The whole transaction from the history, not only the columns shown.
    #expect(text.contains("\"bundleId\""))
    #expect(ui.status?.message.hasPrefix("copied transaction \(chosen.transactionId!)") == true)
  }

  @Test func theViewAtEverySize() {
    let vm = Self.viewModel()
    for (w, h) in StoryRenderTests.sizes {
      let (ui, _) = Self.press([.char("t"), .char("j")], vm, width: w, height: h)
      assertSnapshot(render(vm, ui, width: w, height: h), named: "transactions-active-\(w)x\(h)")
    }
    let (confirm, _) = Self.press([.char("t"), .char("j"), .char("j"), .char("F")], vm, width: 80, height: 24)
    assertSnapshot(render(vm, confirm, width: 80, height: 24), named: "transactions-refund-preview-80x24")
    let ascii = Self.viewModel(DisplayOptions(ascii: true))
    let (a, _) = Self.press([.char("t")], ascii, width: 80, height: 24)
    let frame = render(ascii, a, width: 80, height: 24)
    #expect(frame.textDump.unicodeScalars.allSatisfy { $0.isASCII })
  }

  /// A long history (the view shows a screenful of 2,000): the first screen lists the newest,
  /// `G` the oldest at the bottom, and the rows on screen line up whichever part is shown (only
  /// those rows are formatted and measured, so a key does not format the whole history).
  @Test func aLongHistoryShowsTheScreenfulAtTheCursorAligned() {
    var vm = Self.viewModel()
    var history = CustomerHistory()
    let start = Instant(ms: 1_704_067_200_000)  // 2024-01-01T00:00:00Z
    for k in 0..<2_000 {
      var t = TransactionPayload()
      t.transactionId = String(10_000 + k)
      t.productId = vm.state.subscriber.latestTransaction?.productId
      t.purchaseDate = start + .days(Double(k))
      t.expiresDate = start + .days(Double(k + 1))
      // Prices of different widths far apart in the history: columns fit the rows shown.
      t.price = k < 1_000 ? 990 : 129_990
      t.currency = "USD"
      history.add(t)
    }
    vm.story = CustomerStory.derive(history, state: vm.state, now: start + .days(2_001))
    let rows = TransactionsKeys.rows(vm)
    #expect(rows.count == 2_001)  // and the state's latest transaction, by its purchase date
    #expect(rows.first?.transactionId == "11999")
    #expect(rows.last?.transactionId == "10000")

    let (first, _) = Self.press([.char("t")], vm, width: 100, height: 16)
    let top = render(vm, first, width: 100, height: 16).textDump
    #expect(top.contains("Transactions: 1 of 2001"))
    #expect(top.contains("11999") && !top.contains("10000"))
    let (last, _) = Self.press([.char("t"), .char("G")], vm, width: 100, height: 16)
    let bottom = render(vm, last, width: 100, height: 16).textDump
    #expect(bottom.contains("Transactions: 2001 of 2001"))
    #expect(bottom.contains("10000") && !bottom.contains("11999"))
    // The cursor's row is the transaction the title counts.
    let pointed = { (screen: String) in screen.split(separator: "\n").first { $0.contains("› ") }.map(String.init) ?? "" }
    #expect(pointed(top).contains("11999"))
    #expect(pointed(bottom).contains("10000"))
    let (middle, _) = Self.press([.char("t"), .char("G")] + Array(repeating: .char("k"), count: 15), vm, width: 100, height: 16)
    #expect(pointed(render(vm, middle, width: 100, height: 16).textDump).contains(rows[1_985].transactionId ?? "?"))
    // On each screen, the period column starts at the same place on every row.
    for screen in [top, bottom] {
      let columns = Set(screen.split(separator: "\n").compactMap { line in
        line.contains("→") ? line.distance(from: line.startIndex, to: line.firstIndex(of: "→") ?? line.startIndex) : nil
      })
      #expect(columns.count == 1, "\(screen)")
    }
  }
}

