import CoreValues
import DashModel
extension ScenarioRunner {
  /// Checks one expectation against the state after the previous step, at the virtual clock.
  func check(_ e: Expectation, _ line: ScenarioLine, state: SubscriptionState, _ run: inout Run) throws(ScenarioFailure) {
    let now = (try? Simulator.clock(state)) ?? Instant.epoch
    let sub = state.subscriber
    let t = sub.latestTransaction
    let info = sub.renewalInfo
    func fail(_ expected: String, _ actual: String) -> ScenarioFailure {
      .mismatch(file: scenario.fileName, line: line.number, text: line.text, expected: expected, actual: actual)
    }
    func show(_ i: Instant?) -> String { i.map { $0.description } ?? "none" }
    func showMoney(_ m: Int64?) -> String { m.map { Format.money(milliunits: $0, currency: t?.currency ?? "") } ?? "none" }
    func show(_ n: NotificationRecord) -> String {
      "\(n.label) (\(n.signedDate.map(Format.date) ?? "unsigned"))"
    }

    switch e {
    case .status(let expected):
      let actual = Lifecycle.status(of: sub, at: now).status
      if actual != expected { throw fail(Self.statusText(expected), Self.statusText(actual)) }
    case .notification(let label):
      guard run.checked < run.emitted.count else { throw fail(label.description, "no further notification") }
      let n = run.emitted[run.checked]
      guard label.matches(n) else { throw fail(label.description, show(n)) }
      run.checked += 1
    case .lastNotification(let label):
      guard let n = run.emitted.last else { throw fail(label.description, "no notification at all") }
      guard label.matches(n) else { throw fail(label.description, show(n)) }
      run.checked = run.emitted.count
    case .noMoreNotifications:
      if run.checked < run.emitted.count {
        let rest = run.emitted[run.checked...].map(show).joined(separator: ", ")
        throw fail("no more notifications", rest)
      }
    case .access(let expected):
      let s = Lifecycle.status(of: sub, at: now).status
      let actual = s == .active || s == .billingGracePeriod
      if actual != expected { throw fail(expected ? "access yes" : "access no", "access \(actual ? "yes" : "no") (status \(Self.statusText(s)))") }
    case .product(let id):
      if t?.productId != id { throw fail(id, t?.productId ?? "none") }
    case .renewalProduct(let id):
      if info?.autoRenewProductId != id { throw fail(id, info?.autoRenewProductId ?? "none") }
    case .autoRenew(let on):
      let actual = info?.autoRenewOn == true
      if actual != on { throw fail(on ? "auto-renew on" : "auto-renew off", actual ? "on" : "off") }
    case .expires(let date):
      if t?.expiresDate != date { throw fail(date.description, show(t?.expiresDate)) }
    case .gracePeriodExpires(let date):
      if info?.gracePeriodExpiresDate != date { throw fail(show(date), show(info?.gracePeriodExpiresDate)) }
    case .clock(let date):
      if now != date { throw fail(date.description, now.description) }
    case .price(let p):
      if t?.price != p { throw fail(showMoney(p), showMoney(t?.price)) }
    case .renewalPrice(let p):
      if info?.renewalPrice != p { throw fail(showMoney(p), showMoney(info?.renewalPrice)) }
    case .expirationIntent(let intent):
      if info?.expirationIntent != intent {
        throw fail(intent.map { "\($0.rawValue) (\($0))" } ?? "none", info?.expirationIntent.map { "\($0.rawValue) (\($0))" } ?? "none")
      }
    case .offer(let type):
      if t?.offerType != type { throw fail(type?.description ?? "no offer", t?.offerType?.description ?? "no offer") }
    case .winBack(let ids):
      let actual = info?.eligibleWinBackOfferIds ?? []
      if actual != ids {
        throw fail(ids.isEmpty ? "none" : ids.joined(separator: ", "), actual.isEmpty ? "none" : actual.joined(separator: ", "))
      }
    case .priceIncreaseStatus(let s):
      if info?.priceIncreaseStatus != s { throw fail(s.map { String($0.rawValue) } ?? "none", info?.priceIncreaseStatus.map { String($0.rawValue) } ?? "none") }
    case .revocationReason(let r):
      if t?.revocationReason != r { throw fail(r.map { String($0.rawValue) } ?? "none", t?.revocationReason.map { String($0.rawValue) } ?? "none") }
    case .revocationType(let type, let percentage):
      if t?.revocationType != type { throw fail(type?.rawValue ?? "none", t?.revocationType?.rawValue ?? "none") }
      if let percentage, t?.revocationPercentage != percentage {
        throw fail("revocationPercentage \(percentage)", t?.revocationPercentage.map { "revocationPercentage \($0)" } ?? "no revocationPercentage")
      }
    case .error:
      break
    case .billingPlan(let plan):
      if t?.billingPlanType != plan { throw fail(plan?.rawValue ?? "none", t?.billingPlanType?.rawValue ?? "none") }
    case .commitmentPayment(let number, let total):
      let c = t?.commitmentInfo
      let actual = c.map { "payment \($0.billingPeriodNumber.map(String.init) ?? "?") of \($0.totalBillingPeriods.map(String.init) ?? "?")" } ?? "no commitment"
      if c?.billingPeriodNumber != number || c?.totalBillingPeriods != total { throw fail("payment \(number) of \(total)", actual) }
    case .commitmentBeforeFirstPayment:
      let c = t?.commitmentInfo
      if t?.billingPlanType != .monthly || c == nil || c?.billingPeriodNumber != nil {
        throw fail("billed monthly before payment 1", c.map { "payment \($0.billingPeriodNumber.map(String.init) ?? "?")" } ?? "no commitment")
      }
    case .noCommitment:
      if t?.commitmentInfo != nil || info?.commitmentInfo != nil {
        throw fail("no commitment", t?.commitmentInfo != nil ? "the latest transaction has commitmentInfo" : "renewal info has commitmentInfo")
      }
    case .commitmentEnds(let date):
      if t?.commitmentInfo?.commitmentExpiresDate != date { throw fail(date.description, show(t?.commitmentInfo?.commitmentExpiresDate)) }
    case .commitmentAutoRenew(let on):
      let actual = info?.commitmentInfo?.commitmentAutoRenewStatus
      if actual != (on ? .on : .off) {
        throw fail(on ? "commitment auto-renew on" : "commitment auto-renew off", actual.map { $0 == .on ? "on" : "off" } ?? "none")
      }
    case .retention(let header):
      if let (expected, actual) = checkRetention(header, run) { throw fail(expected, actual) }
    case .member(let name, let which, let date):
      if let (expected, actual) = checkMember(name, which, date) { throw fail(expected, actual) }
    }
  }

  static func statusText(_ s: SubscriptionStatus?) -> String {
    guard let s else { return "none (never subscribed)" }
    return "\(s.rawValue) (\(s))"
  }
}
