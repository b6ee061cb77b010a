import DashModel
import CoreValues

/// Whether a browsing command would do anything now, and if not, the one-line reason the status
/// line shows. The footer lists exactly the available commands.
enum Availability: Equatable {
  case available
  case unavailable(String)

  var isAvailable: Bool { self == .available }

  static func of(_ command: Command, in vm: ViewModel, _ ui: UIState) -> Availability {
    if command.isMutating, let reason = vm.options.readOnlyReason {
      return .unavailable("read-only: \(name(of: command)) disabled (\(reason.why))")
    }
    // `--now` shows the file at another moment; a change made "then" would be written at a time
    // the file's own clock has not reached (or has passed), so changes wait for a normal view.
    if command.isMutating, let at = vm.clock.viewingAt {
      return .unavailable("--now: viewing \(Format.date(at)), so \(name(of: command)) is off; open the file without --now to change it")
    }
    // Every change is applied to the file on disk, which does not read now: refuse at the key
    // rather than after a picker and a confirmation.
    if command.isMutating, let error = ui.fileError {
      return .unavailable("FILE ERROR: \(name(of: command)) waits until the file reads again (\(error))")
    }
    // A consumable, or a product the catalog lacks: nothing a subscription key does applies.
    // Buying a catalog plan, a code and a refresh still make sense.
    if command.isMutating, command != .buy, command != .redeemCode, command != .refetch, let foreign = ForeignPurchase.of(vm.state) {
      return .unavailable("\(name(of: command)): \(foreign.refusal)")
    }
    switch command {
    case .upgrade: return planChange(.upgrade, in: vm)
    case .downgrade: return planChange(.downgrade, in: vm)
    case .crossgrade: return planChange(.crossgrade, in: vm)
    case .buy:
      guard vm.simulationKeysAllowed else { return .unavailable("buy: a purchase is simulated, so it is off on Production data") }
      guard let first = vm.advisor.targets(.buy).first else { return .unavailable("buy: the catalog has no plans") }
      if vm.advisor.hasViableTarget(.buy) { return .available }
      if case .failure(let error) = vm.advisor.preview(first.action) { return .unavailable("buy: \(error.message)") }
      return .available
    case .winBack:
      if !vm.report.winBack.eligible.isEmpty { return .available }
      return .unavailable("no win-back offer: \(vm.report.winBack.whyNone ?? "none is eligible")")
    case .toggleAutoRenew:
      if vm.report.ownership == .familyShared { return .unavailable("auto-renew: \(ActionError.familyShared.message)") }
      switch vm.report.status {
      case .active?, .billingGracePeriod?, .billingRetry?: return .available
      case nil: return .unavailable("auto-renew: this subscriber never subscribed")
      default: return .unavailable("auto-renew: the subscription is \(vm.report.status!.afterIs)")
      }
    case .promotionalOffer:
      return planChange(.promotional, in: vm)
    case .extendRenewal:
      guard vm.simulationKeysAllowed else {
        return .unavailable("simulation keys are disabled on Production data (extend refused)")
      }
      return planChange(.extend, in: vm)
    case .simulate(let sim):
      guard vm.simulationKeysAllowed else {
        return .unavailable("simulation keys are disabled on Production data (\(name(of: command)) refused)")
      }
      return simulation(sim, in: vm)
    case .refetch:
      if FetchOrigin(document: vm.state.document) == nil {
        return .unavailable("refresh: this file was not fetched from the App Store Server API (see subdash fetch)")
      }
      return .available
    case .showEvent:
      return vm.notifications.isEmpty ? .unavailable("no events to show yet") : .available
    case .searchEvents, .copyEvent, .copyEventId:
      return vm.eventsTotal == 0 ? .unavailable("no events yet") : .available
    case .nextMatch, .previousMatch:
      return ui.eventSearch == nil ? .unavailable("no search yet: / searches the events") : .available
    case .timeline:
      return vm.story == nil ? .unavailable("timeline: the history is still being read (a long one is read in the background)") : .available
    case .transactions:
      return TransactionsKeys.rows(vm).isEmpty ? .unavailable("transactions: this subscriber has none yet") : .available
    case .redeemCode, .help, .quit, .moveUp, .moveDown, .pageUp, .pageDown, .first, .last:
      return .available
    }
  }

  private static func planChange(_ kind: PickerKind, in vm: ViewModel) -> Availability {
    let targets = vm.advisor.targets(kind)
    guard let first = targets.first else {
      if vm.report.product == nil { return .unavailable("\(kind.rawValue): no current subscription") }
      switch kind {
      case .upgrade: return .unavailable(ActionError.alreadyTopLevel.message)
      case .downgrade: return .unavailable(ActionError.alreadyBottomLevel.message)
      case .promotional: return .unavailable("promo: the catalog has no promotional offers (adHocOffers) for this group")
      default: return .unavailable(ActionError.noCrossgradeTarget.message)
      }
    }
    if vm.advisor.hasViableTarget(kind) { return .available }
    if case .failure(let error) = vm.advisor.preview(first.action) { return .unavailable(error.message) }
    return .available
  }

  /// The engine's answer (a dry run, as plan keys preview their action), not a copy of its rules:
  /// the footer offers exactly the steps the simulator would take, and a refused key says why.
  private static func simulation(_ sim: SimCommand, in vm: ViewModel) -> Availability {
    guard let refusal = vm.advisor.simulationRefusal(sim) else { return .available }
    var why = refusal.message
    // "The subscription is …" reads on after "expire now: "; keep capitals of names ("Premium …").
    if let first = why.first, why.dropFirst().first?.isLowercase == true { why = first.lowercased() + why.dropFirst() }
    return .unavailable("\(sim.name): \(why)")
  }

  private static func name(of command: Command) -> String {
    switch command {
    case .upgrade: return "upgrade"
    case .downgrade: return "downgrade"
    case .crossgrade: return "crossgrade"
    case .redeemCode: return "redeeming a code"
    case .winBack: return "win-back"
    case .extendRenewal: return "extend"
    case .promotionalOffer: return "promotional offer"
    case .toggleAutoRenew: return "auto-renew"
    case .buy: return "buy"
    case .simulate(let s): return s.name
    case .refetch: return "refresh"
    default: return "this key"
    }
  }
}

extension SimCommand {
  /// Short name for messages: "advance to next event".
  var name: String {
    switch self {
    case .advanceToNextEvent: return "advance to next event"
    case .advance: return "advance the clock"
    case .failNextRenewal: return "fail next renewal"
    case .renewalsSucceed: return "renewals succeed"
    case .resolveBillingIssue: return "resolve billing issue"
    case .expireNow: return "expire now"
    case .refund: return "refund"
    case .requestRefund: return "refund request"
    case .declineRefund: return "decline refund"
    case .reverseRefund: return "reverse refund"
    case .refundProrated: return "prorated refund"
    case .requestPriceIncrease: return "price increase"
    case .consentPriceIncrease: return "consent to price increase"
    case .declinePriceIncrease: return "decline price increase"
    case .approveAskToBuy: return "approve Ask to Buy"
    case .declineAskToBuy: return "decline Ask to Buy"
    }
  }
}

