import DashModel
import CoreValues

/// Fields the dashboard can highlight after a reload changed them.
public enum FieldID: String, Hashable, Sendable, CaseIterable {
  case environment, status, access, product, ownership, renewal, offer
  case grace, billingRetry, expiry, revocation, pendingChange, priceIncrease, askToBuy, winBack, events
  /// Another customer altogether: the file now holds another originalTransactionId.
  case subscriber
}

/// Which fields differ between two reloads. Pure: the runtime calls it with the previous and the
/// new model and stores the result in `ChangeHighlights` with an expiry.
public enum ChangeDetector {
  /// Compares what the reports *say*, not how long is left: a grace countdown that ticked down
  /// is not a change, a new grace end date is.
  public static func diff(old: LifecycleReport, new: LifecycleReport) -> Set<FieldID> {
    var out: Set<FieldID> = []
    func check<T: Equatable>(_ field: FieldID, _ value: (LifecycleReport) -> T) {
      if value(old) != value(new) { out.insert(field) }
    }
    check(.environment) { $0.environment }
    check(.status) { $0.status }
    check(.access) { $0.access }
    check(.product) { $0.product?.productID }
    check(.ownership) { $0.ownership }
    check(.renewal) { $0.renewal }
    check(.offer) { [$0.offerInEffect, $0.offerQueued] }
    check(.grace) { $0.grace?.expiresDate }
    check(.billingRetry) { [$0.billingRetry?.since, $0.billingRetry?.retryUntil] }
    check(.expiry) { $0.expiry }
    check(.revocation) { $0.revocation }
    check(.pendingChange) { $0.pendingChange }
    check(.priceIncrease) { $0.priceIncrease }
    check(.askToBuy) { $0.askToBuy }
    check(.winBack) { $0.winBack }
    return out
  }

  /// The report's fields plus the event log (a new newest notification).
  public static func diff(old: ViewModel, new: ViewModel) -> Set<FieldID> {
    var out = diff(old: old.report, new: new.report)
    // A file replaced by another customer's (a copy over it, a new fetch): said, never silent.
    if let was = old.state.subscriber.originalTransactionId, was != new.state.subscriber.originalTransactionId {
      out.insert(.subscriber)
    }
    if old.notifications.count != new.notifications.count || old.notifications.first != new.notifications.first {
      out.insert(.events)
    }
    return out
  }
}

/// Changed fields and the wall-clock instant until which each stays highlighted.
public struct ChangeHighlights: Equatable, Sendable {
  public private(set) var until: [FieldID: Instant]
  public init(until: [FieldID: Instant] = [:]) { self.until = until }

  /// Marks `fields` as changed until `expiry` (a later reload extends, never shortens).
  public mutating func mark(_ fields: Set<FieldID>, until expiry: Instant) {
    for f in fields { until[f] = max(until[f] ?? expiry, expiry) }
  }

  /// Forgets highlights that ended at or before `now`.
  public mutating func prune(at now: Instant) {
    until = until.filter { $0.value > now }
  }

  /// The next instant a highlight ends after `now`: when the runtime must redraw to fade it.
  public func nextExpiry(after now: Instant) -> Instant? {
    until.values.filter { $0 > now }.min()
  }

  public func isHighlighted(_ field: FieldID, at now: Instant) -> Bool {
    guard let end = until[field] else { return false }
    return now < end
  }
}
