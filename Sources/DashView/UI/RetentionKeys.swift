import DashModel
import RetentionMessaging

/// The App Store's cancel page with a retention message: what the customer sees (the outcome of
/// asking the developer's server, or the default message) and the action taking the offer applies.
public struct RetentionSheet: Equatable, Sendable {
  public var outcome: RetentionOutcome
  public var offer: RetentionOffer
  /// The switch-plan or promotional-offer action (`RetentionChoice.accept`); nil for a message.
  public var accept: PlanAction?
  /// The customer the page was shown for.
  public var originalTransactionId: String?
  public init(outcome: RetentionOutcome, offer: RetentionOffer, accept: PlanAction?, originalTransactionId: String?) {
    self.originalTransactionId = originalTransactionId
    self.outcome = outcome
    self.offer = offer
    self.accept = accept
  }
}

/// Going to cancel with the Retention Messaging API set up (`DIR/.retention-messaging.json`,
/// written by `subdash serve`): the customer first sees the retention message, then keeps the
/// subscription (k), takes what it offers (a), or cancels (c, Apple's confirmation next).
enum RetentionKeys {
  /// `a` with auto-renew on. Nothing configured: the plain confirmation, as before. A realtime
  /// URL: the runtime asks it (`.askRetention`, answered by `.retentionShown`). Only a default
  /// message: it is shown at once (the App Store has nothing to ask).
  static func start(_ state: inout UIState, _ vm: ViewModel) -> [UIEffect] {
    if let problem = vm.retentionProblem {
      Overlay.askToConfirm(.setAutoRenew(false), &state, vm)
      state.status = .error("no retention message: \(problem)")
      return []
    }
    guard let setup = vm.retention, !setup.isEmpty, let customer = RetentionCustomer(vm.state) else {
      Overlay.askToConfirm(.setAutoRenew(false), &state, vm)
      return []
    }
    if let url = setup.realtimeURL {
      state.status = StatusLine("going to cancel: the App Store asks \(Sanitizer.clean(url)) for a retention message…")
      return [.askRetention]
    }
    return shown(RealtimeAnswer.fallback(setup, customer, problem: nil), &state, vm)
  }

  /// The answer came: the sheet, or (no message at all) Apple's plain confirmation.
  static func shown(_ outcome: RetentionOutcome, _ state: inout UIState, _ vm: ViewModel) -> [UIEffect] {
    guard let offer = outcome.offer else {
      Overlay.askToConfirm(.setAutoRenew(false), &state, vm)
      if outcome.problem != nil, case .confirming = state.mode { state.status = StatusLine(Sanitizer.clean(outcome.origin)) }
      return []
    }
    state.mode = .retention(RetentionSheet(outcome: outcome, offer: offer, accept: RetentionChoice.accept.action(for: offer, in: vm.state),
                                                originalTransactionId: vm.state.subscriber.originalTransactionId))
    state.status = StatusLine(Sanitizer.clean("retention message: " + outcome.origin))
    return []
  }

  static func handle(_ key: Key, _ sheet: RetentionSheet, _ state: inout UIState, _ vm: ViewModel) -> [UIEffect] {
    switch key {
    case .char("k"), .char("K"), .escape, .char("q"):
      state.mode = .browsing
      state.status = StatusLine("kept: the customer stayed subscribed; nothing was changed")
    case .char("c"), .char("C"):
      Overlay.askToConfirm(.setAutoRenew(false), &state, vm, stayOnError: .retention(sheet))
    case .char("a"), .char("A"):
      guard let action = sheet.accept else {
        state.status = .error("this message offers nothing to take: k keeps the subscription, c cancels it")
        return []
      }
      Overlay.askToConfirm(action, &state, vm, stayOnError: .retention(sheet))
    default: break
    }
    return []
  }
}
