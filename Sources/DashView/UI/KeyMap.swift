import DashModel

/// What a key means while browsing. Modes with their own keys (help, confirmation, code entry,
/// picker) are handled in the reducer; their footer hints live in `KeyMap.hints(for:)`.
public enum Command: Equatable, Sendable {
  case upgrade, downgrade, crossgrade, redeemCode, winBack, toggleAutoRenew, buy
  /// The developer extends the renewal date (App Store Server API); non-Production files only.
  case extendRenewal
  /// Apply a promotional offer from the catalog (`adHocOffers`).
  case promotionalOffer
  case help, quit
  case moveUp, moveDown, pageUp, pageDown, first, last
  case showEvent
  /// `/` searches the events; `n` / `m` go to the next older / newer match.
  case searchEvents, nextMatch, previousMatch
  /// `y` copies the selected event (one line of JSON), `Y` its notificationUUID (OSC 52).
  case copyEvent, copyEventId
  case simulate(SimCommand)
  /// Fetch the file again from the App Store Server API (files written by `subdash fetch`).
  case refetch
  /// Show and focus the timeline (its cursor keys work while it has the focus).
  case timeline
  /// Every transaction, with a refund of the chosen one (`TransactionsKeys`).
  case transactions

  /// Commands that change the file: refused in read-only mode.
  var isMutating: Bool {
    switch self {
    case .upgrade, .downgrade, .crossgrade, .redeemCode, .winBack, .toggleAutoRenew, .buy, .extendRenewal, .promotionalOffer, .simulate, .refetch: return true
    default: return false
    }
  }
}

/// One row of the key map: the keys, how hints show them, and what they do.
public struct KeyBinding: Sendable {
  public let keys: [Key]
  /// "u", "j/k ↑/↓"; `asciiLabel` replaces it in ASCII mode when it holds other glyphs.
  public let label: String
  public let asciiLabel: String?
  public let command: Command
  /// Footer word(s): "upgrade".
  public let hint: String
  /// Help overlay sentence.
  public let help: String

  func label(ascii: Bool) -> String { ascii ? (asciiLabel ?? label) : label }
}

/// The single table that drives dispatch, the footer and the help overlay, so a key can never be
/// documented without working or work without being documented.
public enum KeyMap {
  public static let browsing: [KeyBinding] = [
    KeyBinding(keys: [.char("?")], label: "?", asciiLabel: nil, command: .help, hint: "help",
               help: "show this list of keys"),
    KeyBinding(keys: [.char("u")], label: "u", asciiLabel: nil, command: .upgrade, hint: "upgrade",
               help: "upgrade to a higher level now, refunding unused time (prorated); ends a 12-month commitment"),
    KeyBinding(keys: [.char("d")], label: "d", asciiLabel: nil, command: .downgrade, hint: "downgrade",
               help: "downgrade to a lower level: takes effect at the next renewal (in a 12-month commitment: its end)"),
    KeyBinding(keys: [.char("c")], label: "c", asciiLabel: nil, command: .crossgrade, hint: "crossgrade",
               help: "crossgrade in the level: now if same duration, else at renewal (in a 12-month commitment: its end)"),
    KeyBinding(keys: [.char("r")], label: "r", asciiLabel: nil, command: .redeemCode, hint: "code",
               help: "type an offer code and redeem it"),
    KeyBinding(keys: [.char("w")], label: "w", asciiLabel: nil, command: .winBack, hint: "win-back",
               help: "choose and accept an eligible win-back offer (best first, as SubDash infers it)"),
    KeyBinding(keys: [.char("a")], label: "a", asciiLabel: nil, command: .toggleAutoRenew, hint: "auto-renew",
               help: "turn auto-renew off or on"),
    KeyBinding(keys: [.char("b")], label: "b", asciiLabel: nil, command: .buy, hint: "buy",
               help: "buy a plan: subscribe, or resubscribe after a lapse"),
    KeyBinding(keys: [.char("o")], label: "o", asciiLabel: nil, command: .promotionalOffer, hint: "promo",
               help: "apply a promotional offer (existing or lapsed subscribers)"),
    KeyBinding(keys: [.char("j"), .down], label: "j/k ↓/↑", asciiLabel: "j/k", command: .moveDown, hint: "",
               help: "move through recent events (also the arrow keys)"),
    KeyBinding(keys: [.char("k"), .up], label: "k", asciiLabel: nil, command: .moveUp, hint: "",
               help: ""),
    KeyBinding(keys: [.pageDown], label: "PgDn", asciiLabel: nil, command: .pageDown, hint: "",
               help: "page down / up through recent events (PgDn / PgUp)"),
    KeyBinding(keys: [.pageUp], label: "PgUp", asciiLabel: nil, command: .pageUp, hint: "", help: ""),
    KeyBinding(keys: [.enter], label: "Enter", asciiLabel: nil, command: .showEvent, hint: "",
               help: "show the selected event whole: every field as the log has it"),
    KeyBinding(keys: [.home, .char("g")], label: "g", asciiLabel: nil, command: .first, hint: "",
               help: "newest event (also Home); G or End: oldest"),
    KeyBinding(keys: [.end, .char("G")], label: "G", asciiLabel: nil, command: .last, hint: "", help: ""),
    KeyBinding(keys: [.char("/")], label: "/", asciiLabel: nil, command: .searchEvents, hint: "",
               help: "search all events (type, ids, date…), n/m older/newer match; y/Y copy event/its id"),
    KeyBinding(keys: [.char("n")], label: "n", asciiLabel: nil, command: .nextMatch, hint: "", help: ""),
    KeyBinding(keys: [.char("m")], label: "m", asciiLabel: nil, command: .previousMatch, hint: "", help: ""),
    KeyBinding(keys: [.char("y")], label: "y", asciiLabel: nil, command: .copyEvent, hint: "",
               help: ""),
    KeyBinding(keys: [.char("Y")], label: "Y", asciiLabel: nil, command: .copyEventId, hint: "", help: ""),
    KeyBinding(keys: [.char("T")], label: "T", asciiLabel: nil, command: .timeline, hint: "",
               help: "timeline (shown from 160 columns): ←/→ choose a period, its transactions and events; T/Esc leave"),
    KeyBinding(keys: [.char("t")], label: "t", asciiLabel: nil, command: .transactions, hint: "",
               help: "transactions: dates, price, offer, revocation; F/% refund the chosen one, y copy"),
    KeyBinding(keys: [.char("l")], label: "l", asciiLabel: nil, command: .refetch, hint: "refresh",
               help: "fetch again from the App Store Server API, in the background"),
    KeyBinding(keys: [.char("q")], label: "q", asciiLabel: nil, command: .quit, hint: "quit",
               help: "quit SubDash (opened from the list: back to it; Esc too)"),
  ]

  /// Keys that drive the simulator. Shown and accepted only on non-Production files.
  public static let simulation: [KeyBinding] = [
    sim(">", .advanceToNextEvent, "next event", "advance the clock to the next scheduled event"),
    sim("+", .advance(.day), "1 day", "advance the clock by one day (over \(LongStep.confirmAbove) events at this rate asks first)"),
    sim("f", .failNextRenewal, "fail renewal", "make the next renewal fail (billing issue); S turns every armed failure off"),
    // Its help is f's line (one line per pair keeps the help whole at 120x40).
    sim("S", .renewalsSucceed, "renewals succeed", ""),
    sim("R", .resolveBillingIssue, "resolve billing", "resolve the billing issue (payment succeeds)"),
    sim("x", .expireNow, "expire", "expire the subscription now"),
    sim("F", .refund, "refund", "refund the latest transaction (revokes access); approves a request"),
    KeyBinding(keys: [.char("e")], label: "e", asciiLabel: nil, command: .extendRenewal, hint: "extend",
               help: "extend the renewal date by 1-90 days with Apple's reason (0-3), as its Server API does"),
    sim("p", .requestPriceIncrease, "price increase", "request a price increase that needs consent"),
    sim("P", .consentPriceIncrease, "consent", "customer consents to the price increase"),
    sim("N", .declinePriceIncrease, "decline", "customer declines the price increase"),
    sim("A", .approveAskToBuy, "approve", "approve the Ask to Buy request"),
    sim("Z", .declineAskToBuy, "decline", "decline the Ask to Buy request"),
    // The refund workflow, last so the footer drops these before the older keys on narrow screens.
    // One help line per pair (C and D, % and V), so the help stays whole at 120x40.
    sim("C", .requestRefund(.unsatisfiedWithPurchase), "ask refund", "customer asks for a refund (CONSUMPTION_REQUEST); D declines"),
    sim("D", .declineRefund, "decline refund", ""),
    sim("%", .refundProrated, "prorated", "prorated refund (REFUND_PRORATED); V reverses a refund"),
    sim("V", .reverseRefund, "reverse refund", ""),
  ]

  private static func sim(_ key: Character, _ cmd: SimCommand, _ hint: String, _ help: String) -> KeyBinding {
    KeyBinding(keys: [.char(key)], label: String(key), asciiLabel: nil, command: .simulate(cmd), hint: hint, help: help)
  }

  /// The browsing command for `key`, if any. Simulation keys are returned even on Production so
  /// the reducer can say why they are refused instead of ignoring them.
  public static func command(for key: Key) -> Command? {
    (browsing + simulation).first { $0.keys.contains(key) }?.command
  }
}
