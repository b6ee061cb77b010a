import DashModel
import CoreValues

/// The model's answers the UI needs before anything is written: what an action would do, and
/// which actions a picker offers. Closures, so the reducer and renderer stay pure values of the
/// state they were built for and tests can substitute a refusal.
public struct ActionAdvisor: Sendable {
  public var preview: @Sendable (PlanAction) -> Result<ActionPreview, ActionError>
  public var targets: @Sendable (PickerKind) -> [PickerItem]
  /// Why the simulator would refuse a step right now, nil when it would act: the engine's own
  /// answer from a dry run, so the key bar and help offer exactly the steps it takes.
  public var simulationRefusal: @Sendable (SimCommand) -> ActionError?
  /// A transaction of the history, whole, by id (the transactions view's `y`).
  public var transaction: @Sendable (String) -> TransactionPayload?
  /// How many events a clock step would apply, counted up to `LongStep.confirmAbove + 1` when
  /// asked (a key press), nil for steps that are not clock steps.
  public var stepSize: @Sendable (SimCommand) -> LongStep.Size? = { _ in nil }

  public init(
    preview: @escaping @Sendable (PlanAction) -> Result<ActionPreview, ActionError>,
    targets: @escaping @Sendable (PickerKind) -> [PickerItem],
    simulationRefusal: @escaping @Sendable (SimCommand) -> ActionError? = { _ in nil },
    transaction: @escaping @Sendable (String) -> TransactionPayload? = { _ in nil }
  ) {
    self.preview = preview
    self.targets = targets
    self.simulationRefusal = simulationRefusal
    self.transaction = transaction
  }

  /// The real thing: `Actions.preview` and `Actions.targets` on `state` at `now`, and the report's
  /// eligible win-back offers (already best first). `timing` is the file's renewal rate.
  /// `history`: where a transaction the transactions view names is read (the file's journal);
  /// by default the state's own latest transaction and inline history.
  public static func live(_ state: SubscriptionState, report: LifecycleReport, at now: Instant,
                          timing: any RenewalTiming = TimeRate.realTime, history: TransactionLookup? = nil) -> ActionAdvisor {
    let currency = Simulator.currency(state)
    let currentId = state.subscriber.latestTransaction?.productId
    let winBack = report.winBack.eligible
    let refusals = simulationRefusals(state, at: now)
    let history = history ?? .inState(state)
    var advisor = ActionAdvisor(
      preview: { Actions.preview($0, in: state, at: now, timing: timing, history: history) },
      targets: { kind in
        let change: PlanChangeKind
        switch kind {
        case .winBack:
          return winBack.map { PickerItem(action: .acceptWinBack(offerId: $0.offerId), title: PlanText.winBackTitle($0, currency: currency, catalog: state.catalog)) }
        case .buy:
          // The subscriber's group (a lapsed customer resubscribes within it), else every plan.
          let group = currentId.flatMap { state.catalog.group(of: $0) }
          // In the plans panel's order (`tiers`: by level, then price), not the catalog file's.
          let products = group?.tiers ?? state.catalog.groups.flatMap(\.tiers)
          // A product with a monthly plan is two choices, as on Apple's purchase sheet: the
          // yearly price up front, or monthly with a 12-month commitment.
          return products.flatMap { p -> [PickerItem] in
            let name = distinctName(p, among: products, catalog: state.catalog)
            guard let monthly = p.monthlyPlan else {
              return [PickerItem(action: .buy(productId: p.productID), title: "\(name) — \(PlanText.price(of: p, currency: currency))")]
            }
            return [
              PickerItem(action: .buy(productId: p.productID),
                         title: "\(name) — yearly up front: \(PlanText.price(of: p, currency: currency))"),
              PickerItem(action: .buy(productId: p.productID, billingPlan: .monthly),
                         title: "\(name) — \(PlanText.monthlyPlan(monthly, currency: currency))"),
            ]
          }
        case .extend:
          return ExtendChoices.items(state: state, at: now, timing: timing)
        case .extendReason:
          // Built from the days chosen in the `.extend` step (`ExtendChoices.reasonItems`).
          return []
        case .promotional:
          return PromotionalOffer.targets(in: state).map { t in
            PickerItem(action: .applyPromotionalOffer(offerId: t.offer.id, productId: t.product.productID),
                       title: "\(t.product.displayName) — \(t.offer.referenceName)")
          }
        case .upgrade: change = .upgrade
        case .downgrade: change = .downgrade
        case .crossgrade: change = .crossgrade
        }
        return Actions.targets(for: change, in: state, at: now, timing: timing).map { t in
          let p = t.product
          // The downgrade list offers the current product while a change is pending: picking it cancels that change.
          let title = p.productID == currentId
            ? "\(p.displayName) — keep the current plan"
            : "\(p.displayName) — \(PlanText.price(of: p, currency: currency))"
          return PickerItem(action: t.action, title: title)
        }
      },
      simulationRefusal: { cmd in refusals.first { $0.command == cmd }?.refusal },
      transaction: history.find)
    advisor.stepSize = { cmd in
      guard case .advance(let span) = cmd else { return nil }
      return try? Simulator.size(ofAdvancing: span, state, at: now)
    }
    return advisor
  }

  /// A product's display name, with what tells it apart when another product in the list has
  /// the same one: its group's name (products of two groups) or else its product id.
  static func distinctName(_ p: SubscriptionProduct, among products: [SubscriptionProduct], catalog: Catalog) -> String {
    let twins = products.filter { $0.displayName == p.displayName && $0.productID != p.productID }
    guard !twins.isEmpty else { return p.displayName }
    let groupName = catalog.group(of: p.productID)?.name
    let groupsDiffer = twins.allSatisfy { catalog.group(of: $0.productID)?.name != groupName }
    if groupsDiffer, let groupName, !groupName.isEmpty { return "\(p.displayName) (\(groupName))" }
    return "\(p.displayName) (\(p.productID))"
  }

  /// Dry runs of the simulation keys (`Simulator.apply` on `state` at `now`, nothing written),
  /// once per derived model rather than once per frame. `+` is not dry-run: time can always move
  /// on (the engine refuses only dates past the file range), and a day at the fastest rate is
  /// tens of thousands of renewals.
  static func simulationRefusals(_ state: SubscriptionState, at now: Instant) -> [(command: SimCommand, refusal: ActionError)] {
    guard state.subscriber.environment != .production else { return [] }  // keys are off anyway
    return KeyMap.simulation.compactMap { binding in
      guard case .simulate(let cmd) = binding.command else { return nil }
      if case .advance = cmd { return nil }
      if case .failure(let refusal) = Simulator.apply(cmd, to: state, at: now) { return (cmd, refusal) }
      return nil
    }
  }

  /// `live`'s targets with previews from `preview` (kept for callers that build their own preview
  /// closure, e.g. with a non-default timing). Prefer `live` or `ViewModel.derived`.
  public static func catalog(
    _ state: SubscriptionState, report: LifecycleReport,
    preview: @escaping @Sendable (PlanAction) -> Result<ActionPreview, ActionError>
  ) -> ActionAdvisor {
    ActionAdvisor(preview: preview, targets: live(state, report: report, at: report.now).targets)
  }

  /// Whether any target of `kind` can be previewed successfully, i.e. the key would lead somewhere.
  func hasViableTarget(_ kind: PickerKind) -> Bool {
    targets(kind).contains { if case .success = preview($0.action) { return true } else { return false } }
  }
}

/// The kinds of choice a picker offers.
public enum PickerKind: String, Equatable, Sendable, CaseIterable {
  case upgrade, downgrade, crossgrade, winBack, buy, extend, promotional
  /// The `e` dialog's second step: why the renewal date is extended (Apple's 0–3).
  case extendReason

  var title: String {
    switch self {
    case .upgrade: return "Upgrade to"
    case .downgrade: return "Downgrade to"
    case .crossgrade: return "Crossgrade to"
    case .winBack: return "Accept win-back offer"
    case .buy: return "Buy (subscribe or resubscribe)"
    case .extend: return "Extend the renewal date by"
    case .extendReason: return "Reason for the extension (Apple's extendReasonCode)"
    case .promotional: return "Apply promotional offer"
    }
  }
}

/// One choice in a picker: the action it takes and how it is named.
public struct PickerItem: Equatable, Sendable {
  public var action: PlanAction
  /// "Pro Yearly — 99.99 USD / 1 year"
  public var title: String
  public init(action: PlanAction, title: String) {
    self.action = action
    self.title = title
  }
}
