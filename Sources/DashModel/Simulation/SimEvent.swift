import CoreValues
/// Something the App Store does on its own at a moment in time.
public struct SimEvent: Equatable, Sendable, CustomStringConvertible {
  public enum Kind: Int, Comparable, Sendable, CustomStringConvertible {
    // Raw values order simultaneous events: a period ends before grace, grace before retry, and
    // a recovery due at the very end of grace is a recovery in retry (grace ends at its date).
    case renewal = 0
    case expiration
    case gracePeriodEnd
    case billingRetryEnd
    case billingRecovery
    case winBackEligibility

    public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
      switch self {
      case .renewal: return "renewal"
      case .expiration: return "expiration (auto-renew off)"
      case .gracePeriodEnd: return "end of grace period"
      case .billingRetryEnd: return "end of billing retry"
      case .billingRecovery: return "scripted billing recovery"
      case .winBackEligibility: return "win-back eligibility change"
      }
    }
  }

  public var date: Instant
  public var kind: Kind

  public init(date: Instant, kind: Kind) {
    self.date = date
    self.kind = kind
  }

  public var description: String { "\(kind) at \(date)" }
}

extension SimContext {
  /// Every event still to happen, earliest first. Period, grace and retry events are pending by
  /// state (they may be overdue: a file edited by hand, or "expire now"); win-back checks only
  /// count when they lie after the clock and actually change the eligible offers.
  func pendingEvents() -> [SimEvent] {
    var out: [SimEvent] = []
    if let t = latest, t.revocationDate == nil, let e = t.expiresDate {
      if let issue = settings.billingIssue, !renewalInfo.autoRenewOn {
        // Cancelled during a billing issue: retry stops (Apple: "until the user … cancels").
        // In grace the customer keeps the access promised until the grace date; otherwise
        // nothing is paid for, so it expires when auto-renew went off (the auto-renew action
        // already expires it then; this covers files changed some other way).
        let cancelled = max(issue.since, min(renewalInfo.signedDate ?? reached, issue.retryExpiresDate))
        let graceEnd = issue.graceExpired ? nil : issue.gracePeriodExpiresDate
        out.append(SimEvent(date: graceEnd.map { max($0, cancelled) } ?? cancelled, kind: .expiration))
      } else if let issue = settings.billingIssue {
        if let g = issue.gracePeriodExpiresDate, !issue.graceExpired { out.append(SimEvent(date: g, kind: .gracePeriodEnd)) }
        out.append(SimEvent(date: issue.retryExpiresDate, kind: .billingRetryEnd))
        if let r = issue.recoverAt, r < issue.retryExpiresDate { out.append(SimEvent(date: r, kind: .billingRecovery)) }
      } else if renewalInfo.expirationIntent != nil && e <= reached {
        // Already expired for good; a period that ended before the clock never renews late.
      } else {
        out.append(SimEvent(date: e, kind: renewalInfo.autoRenewOn ? .renewal : .expiration))
      }
    }
    if let w = nextWinBackChange() { out.append(w) }
    return out.sorted { ($0.date, $0.kind) < ($1.date, $1.kind) }
  }

  /// Applies one event at its own time.
  mutating func process(_ event: SimEvent) {
    switch event.kind {
    case .renewal: attemptRenewal(at: event.date)
    case .expiration: expireAtPeriodEnd(at: event.date)
    case .gracePeriodEnd: endGrace(at: event.date)
    case .billingRetryEnd: endBillingRetry(at: event.date)
    case .billingRecovery:
      // A recovery that cannot apply is dropped, so it can never be pending forever.
      do { try recover(at: event.date) } catch { settings.billingIssue?.recoverAt = nil }
    case .winBackEligibility: break
    }
    lastEventDate = max(lastEventDate ?? event.date, event.date)
    refreshWinBack(at: event.date)
  }

  /// Applies every event due by `target` in order, then moves the clock to `target` (never
  /// back). Returns how many events were applied.
  @discardableResult
  mutating func run(until target: Instant, limit: Int = SimContext.eventLimit) -> Int {
    var count = 0
    while count < limit, let next = pendingEvents().first, next.date <= target {
      process(next)
      count += 1
    }
    return count
  }

  /// A safety stop for one step, so a pathological file cannot spin forever.
  static let eventLimit = 100_000

  /// The most overdue events (due before the clock) one step will apply. Events are overdue only
  /// when `simulation.now` was moved past a period without simulating it (a hand-edited or
  /// generated file); at a fast rate a clock decades ahead means millions of renewals, which no
  /// one wants invented by one key press (a fuzz finding: 100,000 renewals, 1.5 s and 40 MB of
  /// journal per press). 1,000 is over half an hour of the fastest rate (a renewal every 2 s) and
  /// keeps a refused key press near 15 ms.
  static let overdueLimit = 1_000

  /// Applies every event due before the clock, or throws (so nothing is written) when more than
  /// `overdueLimit` are due, saying which dates to fix.
  mutating func catchUpOverdue() throws(ActionError) {
    let clock = now
    guard let first = pendingEvents().first, first.date <= clock else { return }
    let applied = run(until: clock, limit: Self.overdueLimit)
    if applied == Self.overdueLimit, let next = pendingEvents().first, next.date <= clock {
      throw ActionError.simulator(.tooManyOverdue(clock: Format.date(clock), firstDue: Format.date(first.date)))
    }
  }
}
