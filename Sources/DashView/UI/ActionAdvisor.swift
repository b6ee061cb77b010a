import DashModel

/// The model's answers the UI needs before anything is written: what an action would do, and
/// which actions a picker offers. Closures, so the reducer and renderer stay pure values of the
/// state they were built for and tests can substitute a refusal.
public struct ActionAdvisor: Sendable {
  public var preview: @Sendable (PlanAction) -> Result<ActionPreview, ActionError>
  public var targets: @Sendable (PickerKind) -> [PickerItem]

  public init(
    preview: @escaping @Sendable (PlanAction) -> Result<ActionPreview, ActionError>,
    targets: @escaping @Sendable (PickerKind) -> [PickerItem]
  ) {
    self.preview = preview
    self.targets = targets
  }

  /// The real thing: `Actions.preview` and `Actions.targets` on `state` at `now`, and the report's
  /// eligible win-back offers (already best first). `timing` is the file's renewal rate.
  public static func live(_ state: SubscriptionState, report: LifecycleReport, at now: Instant,
                          timing: any RenewalTiming = TimeRate.realTime) -> ActionAdvisor {
    let currency = state.subscriber.latestTransaction?.currency ?? state.subscriber.renewalInfo?.currency
    let currentId = state.subscriber.latestTransaction?.productId
    let winBack = report.winBack.eligible
    return ActionAdvisor(
      preview: { Actions.preview($0, in: state, at: now, timing: timing) },
      targets: { kind in
        let change: PlanChangeKind
        switch kind {
        case .winBack:
          return winBack.map { PickerItem(action: .acceptWinBack(offerId: $0.offerId), title: PlanText.winBackTitle($0, currency: currency, catalog: state.catalog)) }
        case .extend:
          return ExtendChoices.items(state: state, at: now, timing: timing)
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
            : "\(p.displayName) — \(PlanText.price(p.priceMilli, currency: currency, period: p.period))"
          return PickerItem(action: t.action, title: title)
        }
      })
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
  case upgrade, downgrade, crossgrade, winBack, extend, promotional

  var title: String {
    switch self {
    case .upgrade: return "Upgrade to"
    case .downgrade: return "Downgrade to"
    case .crossgrade: return "Crossgrade to"
    case .winBack: return "Accept win-back offer"
    case .extend: return "Extend the renewal date by"
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
