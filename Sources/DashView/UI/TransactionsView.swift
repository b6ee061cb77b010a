import DashModel
import CoreValues

/// Where the transactions view's cursor is: a position in `TransactionsKeys.rows` (0 = newest).
public struct TransactionsCursor: Equatable, Sendable {
  public var selection = 0
  public init(selection: Int = 0) { self.selection = selection }
}

/// The transactions view (`t`), support's Xcode transaction manager: every transaction of the
/// history, newest first, a cursor, and from it a refund of the chosen transaction (`F` in full,
/// `%` prorated), previewed and confirmed like every action, and `y` to copy it.
enum TransactionsKeys {
  /// Each transaction's last version, newest first; the latest alone while a long history is
  /// still being read (the view says so). Read through the story, not copied: every key and
  /// every frame asks for them, and a long history has 100,000.
  static func rows(_ vm: ViewModel) -> TransactionRows {
    if let story = vm.story { return TransactionRows(story.transactions) }
    return TransactionRows(latest: vm.state.subscriber.latestTransaction.map(StoryTransaction.init))
  }

  static func open(_ state: inout UIState, _ vm: ViewModel) {
    state.transactions.selection = clamp(state.transactions.selection, rows(vm).count)
    state.mode = .transactions
    state.status = vm.story == nil ? StatusLine("transactions: only the latest until the history is read") : nil
  }

  static func handle(_ key: Key, _ state: inout UIState, _ vm: ViewModel) -> [UIEffect] {
    let list = rows(vm)
    let page = max(1, state.extents.overlayRows)
    func move(_ delta: Int) { state.transactions.selection = clamp(state.transactions.selection + delta, list.count) }
    switch key {
    case .escape, .char("q"), .char("t"):
      state.mode = .browsing
    case .down, .char("j"): move(1)
    case .up, .char("k"): move(-1)
    case .pageDown: move(page)
    case .pageUp: move(-page)
    case .home, .char("g"): state.transactions.selection = 0
    case .end, .char("G"): state.transactions.selection = max(0, list.count - 1)
    case .char("F"), .char("%"):
      guard let chosen = selected(list, state), let id = chosen.transactionId else {
        state.status = .error("refund: the selected transaction has no transactionId")
        return []
      }
      if let why = refundRefusal(vm) {
        state.status = .error(why)
        return []
      }
      Overlay.askToConfirm(.refundTransaction(transactionId: id, prorated: key == .char("%")), &state, vm, stayOnError: .transactions)
    case .char("y"):
      guard let chosen = selected(list, state) else { return [] }
      let copy = Clipboard.transaction(chosen, whole: chosen.transactionId.flatMap { vm.advisor.transaction($0) })
      state.status = StatusLine(copy.description)
      return [.copyToClipboard(copy.text)]
    default: break
    }
    return []
  }

  /// Why a refund key does nothing here, as the simulation keys say it on the main view.
  static func refundRefusal(_ vm: ViewModel) -> String? {
    if let reason = vm.options.readOnlyReason { return "read-only: refund disabled (\(reason.why))" }
    if let at = vm.clock.viewingAt { return "--now: viewing \(Format.date(at)), so refund is off; open the file without --now to change it" }
    if !vm.simulationKeysAllowed { return "simulation keys are disabled on Production data (refund refused)" }
    return nil
  }

  static func selected(_ list: TransactionRows, _ state: UIState) -> StoryTransaction? {
    list.indices.contains(state.transactions.selection) ? list[state.transactions.selection] : nil
  }

  static func clamp(_ i: Int, _ count: Int) -> Int { min(max(0, i), max(0, count - 1)) }
}

/// The transactions view's rows, newest first: the story's transactions read backwards, or the
/// latest transaction alone.
struct TransactionRows: RandomAccessCollection {
  private let story: StoryTransactions?
  private let latest: [StoryTransaction]

  init(_ story: StoryTransactions) {
    self.story = story
    latest = []
  }

  init(latest: StoryTransaction?) {
    story = nil
    self.latest = latest.map { [$0] } ?? []
  }

  var startIndex: Int { 0 }
  var endIndex: Int { story?.count ?? latest.count }
  subscript(k: Int) -> StoryTransaction {
    guard let story else { return latest[k] }
    return story[story.count - 1 - k]
  }
}
