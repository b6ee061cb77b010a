import CoreValues
/// Keeps `renewalInfo.eligibleWinBackOfferIds` current as virtual time passes. Eligibility is
/// model-life's rule (`WinBackEligibility`); the simulator only decides *when* to recompute it:
/// at every event, at the end of every step, and at the moments it can change on its own (a
/// lapse reaching an offer's minimum or maximum months, an offer's start or end date, the wait
/// between offers running out).
extension SimContext {
  /// Eligible offer ids at `date`, best first (none while active, in grace, in retry or revoked).
  func eligibleWinBackIds(at date: Instant) -> [String] {
    let s = evaluationState
    let status = Lifecycle.status(of: s.subscriber, at: date).status
    return WinBackEligibility.evaluate(s, status: status, at: date, appleList: false).eligible.map(\.offerId)
  }

  mutating func refreshWinBack(at date: Instant) {
    guard state.subscriber.renewalInfo != nil else { return }
    let ids = eligibleWinBackIds(at: date)
    let current = renewalInfo.eligibleWinBackOfferIds ?? []
    guard ids != current else { return }
    renewalInfo.eligibleWinBackOfferIds = ids.isEmpty ? nil : ids
  }

  /// The next moment after the clock when the eligible offers change, if any.
  func nextWinBackChange() -> SimEvent? {
    // While the subscription will still renew or is in billing trouble, its period and retry
    // events come first and this is asked again after them.
    guard state.subscriber.renewalInfo != nil, !renewalInfo.autoRenewOn, settings.billingIssue == nil,
          let t = latest, let lapse = t.expiresDate else { return nil }
    let offers = WinBackEligibility.offersForMostRecent(t, in: state)
    guard !offers.isEmpty else { return nil }
    let clock = reached
    var candidates: [Instant] = []
    let past = WinBackEligibility.Past(evaluationState)
    // The same month arithmetic as the eligibility rule (clamped: a file may say -2 or Int.max).
    for o in offers {
      candidates.append(LifecycleCalendar.adding(months: o.monthsSinceLastSubscribedMin, to: lapse))
      if let max = o.monthsSinceLastSubscribedMax {
        candidates.append(LifecycleCalendar.adding(months: min(max, LifecycleCalendar.monthLimit) + 1, to: lapse))
      }
      if let s = o.startDate { candidates.append(s) }
      if let e = o.endDate { candidates.append(e) }
      if let again = WinBackEligibility.redeemableAgain(o, lapse: lapse, past: past) { candidates.append(again) }
    }
    var current = eligibleWinBackIds(at: clock)
    for c in Set(candidates.filter { $0 > clock }).sorted() {
      let ids = eligibleWinBackIds(at: c)
      if ids != current { return SimEvent(date: c, kind: .winBackEligibility) }
      current = ids
    }
    return nil
  }
}
