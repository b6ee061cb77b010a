import DashModel

/// The model's answers the UI needs before anything is written: what an action would do, and
/// which actions a picker offers. Closures so the runtime plugs in `Actions.preview` and tests can
/// run without it.
public struct ActionAdvisor: Sendable {
  public var preview: @Sendable (PlanAction) -> Result<ActionPreview, ActionError>
  public var targets: @Sendable (PickerKind) -> [PlanTarget]

  public init(
    preview: @escaping @Sendable (PlanAction) -> Result<ActionPreview, ActionError>,
    targets: @escaping @Sendable (PickerKind) -> [PlanTarget]
  ) {
    self.preview = preview
    self.targets = targets
  }

  /// Targets read from the catalog and the report (levels within the current group, eligible
  /// win-back offers best first), with previews from `preview`.
  public static func catalog(
    _ state: SubscriptionState, report: LifecycleReport,
    preview: @escaping @Sendable (PlanAction) -> Result<ActionPreview, ActionError>
  ) -> ActionAdvisor {
    let choices = PlanTargets(state: state, report: report)
    return ActionAdvisor(preview: preview, targets: { choices.targets($0) })
  }

  /// Whether any target of `kind` can be previewed successfully, i.e. the key would lead somewhere.
  func hasViableTarget(_ kind: PickerKind) -> Bool {
    targets(kind).contains { if case .success = preview($0.action) { return true } else { return false } }
  }
}

/// The kinds of choice a picker offers.
public enum PickerKind: String, Equatable, Sendable, CaseIterable {
  case upgrade, downgrade, crossgrade, winBack

  var title: String {
    switch self {
    case .upgrade: return "Upgrade to"
    case .downgrade: return "Downgrade to"
    case .crossgrade: return "Crossgrade to"
    case .winBack: return "Accept win-back offer"
    }
  }
}

/// One choice in a picker: the action it takes and how it is named.
public struct PlanTarget: Equatable, Sendable {
  public var action: PlanAction
  /// "Pro Yearly — 99.99 USD / 1 year"
  public var title: String
  public init(action: PlanAction, title: String) {
    self.action = action
    self.title = title
  }
}

/// Candidate targets by Apple's group rules: a lower level number is a higher level of service.
struct PlanTargets: Sendable {
  let tiers: [SubscriptionProduct]
  let current: SubscriptionProduct?
  let currency: String?
  let winBack: [WinBackOffer]

  init(state: SubscriptionState, report: LifecycleReport) {
    current = report.product ?? state.currentProduct
    tiers = (report.group ?? state.currentGroup)?.tiers ?? []
    currency = state.subscriber.latestTransaction?.currency ?? state.subscriber.renewalInfo?.currency
    winBack = report.winBack.eligible
  }

  func targets(_ kind: PickerKind) -> [PlanTarget] {
    switch kind {
    case .winBack:
      return winBack.map { PlanTarget(action: .acceptWinBack(offerId: $0.offerId), title: PlanText.winBackTitle($0, currency: currency)) }
    case .upgrade, .downgrade, .crossgrade:
      guard let current else { return [] }
      return tiers.filter { p in
        guard p.productID != current.productID else { return false }
        switch kind {
        case .upgrade: return p.level < current.level
        case .downgrade: return p.level > current.level
        default: return p.level == current.level
        }
      }.map { p in
        let title = "\(p.displayName) — \(PlanText.price(p.priceMilli, currency: currency, period: p.period))"
        switch kind {
        case .upgrade: return PlanTarget(action: .upgrade(toProductId: p.productID), title: title)
        case .downgrade: return PlanTarget(action: .downgrade(toProductId: p.productID), title: title)
        default: return PlanTarget(action: .crossgrade(toProductId: p.productID), title: title)
        }
      }
    }
  }
}
