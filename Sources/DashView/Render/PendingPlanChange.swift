import DashModel
import CoreValues

/// The plan change waiting to take effect, wherever the renewal info keeps it: the report's
/// pending change (the next renewal), or the plan chosen for when a 12-month commitment ends
/// (the renewal's `commitmentInfo`; the report's pending change speaks for the next monthly
/// payment only, so without this the plans panel asked the model again and showed its refusal,
/// "A switch to <product id> at the next renewal is already scheduled").
struct PendingPlanChange: Equatable {
  var kind: PendingChange.Kind
  var toProductId: String
  var effectiveDate: Instant
  /// It waits for the commitment's end, not the next renewal.
  var atCommitmentEnd: Bool

  static func of(_ vm: ViewModel) -> PendingPlanChange? {
    let r = vm.report
    if let p = r.pendingChange {
      return PendingPlanChange(kind: p.kind, toProductId: p.toProductId, effectiveDate: p.effectiveDate, atCommitmentEnd: false)
    }
    guard let c = r.commitment, case .renews(_, let id?, _, let date) = c.then, let current = r.product, id != current.productID,
          let target = vm.state.catalog.product(id), let at = date ?? c.commitmentExpiresDate else { return nil }
    let kind: PendingChange.Kind = target.level > current.level ? .downgrade : target.level < current.level ? .upgrade : .crossgrade
    return PendingPlanChange(kind: kind, toProductId: id, effectiveDate: at, atCommitmentEnd: true)
  }

  /// "pending downgrade on Jun 01 08:00"; at a commitment's end its day, as the plan line gives
  /// it, and why: "pending downgrade on 2027-02-01, when the commitment ends". The date first, so
  /// a narrow panel that cuts the line keeps it.
  func text(now: Instant) -> String {
    guard atCommitmentEnd else { return "pending \(kind.rawValue) on \(Format.dateShort(effectiveDate, now: now))" }
    return "pending \(kind.rawValue) on \(Format.date(effectiveDate).prefix(10)), when the commitment ends"
  }
}
