@testable import DashModel
@testable import DashView

/// One subscriber situation the dashboard must show: a decoded state, its lifecycle report and
/// the clocks. Reports are written by hand until `Lifecycle.derive` (branch model-life) is merged.
struct Scenario {
  var name: String
  var state: SubscriptionState
  var report: LifecycleReport
  var clock: DashClock
  var fileError: String? = nil

  func viewModel(options: DisplayOptions = DisplayOptions(), simulationKeysAllowed: Bool? = nil, highlights: ChangeHighlights = ChangeHighlights()) -> ViewModel {
    ViewModel(state: state, report: report, notifications: state.subscriber.notifications, fileName: "state.json",
              clock: clock, options: options, simulationKeysAllowed: simulationKeysAllowed, fileError: fileError,
              highlights: highlights, advisor: StandInActions.advisor(state, report))
  }
}

enum Scenarios {
  static let premium = "com.example.premium.monthly"
  static let periodEnd = day(2026, 4, 1, 9, 30)
  static let now = day(2026, 3, 14, 9, 30)
  static let wall = day(2026, 3, 14, 10, 2)

  static let all: [Scenario] = [
    active, autoRenewOff, pendingDowngrade, pendingCrossgrade, priceIncreasePending, grace, billingRetryNone,
    billingRetryLimited, expiredVoluntaryWithWinBack, expiredBilling, refunded, familyShared, askToBuyPending,
    newSubscriber, fileError,
  ]

  /// A report with the parts every state shares filled in from the state.
  static func report(_ state: SubscriptionState, at now: Instant, _ status: SubscriptionStatus?, _ rule: String,
                     access: AccessVerdict, renewal: RenewalOutlook, whyNoWinBack: String? = "active subscription in the group") -> LifecycleReport {
    var r = LifecycleReport(now: now, status: status, statusRule: rule, access: access, renewal: renewal,
                            winBack: WinBackReport(eligible: [], whyNone: whyNoWinBack))
    r.product = state.currentProduct
    r.group = state.currentProduct == nil ? nil : state.currentGroup
    r.environment = state.subscriber.environment
    r.ownership = state.subscriber.latestTransaction?.inAppOwnershipType
    return r
  }

  static func scenario(_ name: String, _ b: StateBuilder, at now: Instant = now, wall: Instant = wall,
                       _ make: (SubscriptionState) -> LifecycleReport) -> Scenario {
    let state = b.build()
    return Scenario(name: name, state: state, report: make(state), clock: DashClock(simulated: now, wall: wall))
  }

  static var active: Scenario {
    scenario("active", StateBuilder()) { s in
      report(s, at: now, .active, "now is before expiresDate", access: AccessVerdict(.yes, rule: "subscribed"),
             renewal: .renews(date: periodEnd, productId: premium, priceMilli: 6990, currency: "USD"))
    }
  }

  static var autoRenewOff: Scenario {
    var b = StateBuilder()
    b.setRenewal("autoRenewStatus", 0)
    b.notifications.append(StateBuilder.note("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", day(2026, 3, 10, 18, 5), "turned auto-renew off"))
    return scenario("auto-renew-off", b) { s in
      report(s, at: now, .active, "now is before expiresDate", access: AccessVerdict(.yes, rule: "subscribed until the period ends"),
             renewal: .expiresAutoRenewOff(date: periodEnd))
    }
  }

  static var pendingDowngrade: Scenario {
    var b = StateBuilder()
    b.setRenewal("autoRenewProductId", "com.example.basic.monthly")
    b.notifications.append(StateBuilder.note("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE", day(2026, 3, 12, 8, 0), "downgrade to Basic Monthly at renewal"))
    return scenario("pending-downgrade", b) { s in
      var r = report(s, at: now, .active, "now is before expiresDate", access: AccessVerdict(.yes, rule: "subscribed"),
                     renewal: .switches(date: periodEnd, toProductId: "com.example.basic.monthly"))
      r.pendingChange = PendingChange(kind: .downgrade, toProductId: "com.example.basic.monthly", effectiveDate: periodEnd)
      return r
    }
  }

  static var pendingCrossgrade: Scenario {
    var b = StateBuilder()
    b.setRenewal("autoRenewProductId", "com.example.premium.yearly")
    b.notifications.append(StateBuilder.note("DID_CHANGE_RENEWAL_PREF", nil, day(2026, 3, 12, 8, 0), "crossgrade to Premium Yearly at renewal"))
    return scenario("pending-crossgrade", b) { s in
      var r = report(s, at: now, .active, "now is before expiresDate", access: AccessVerdict(.yes, rule: "subscribed"),
                     renewal: .switches(date: periodEnd, toProductId: "com.example.premium.yearly"))
      r.pendingChange = PendingChange(kind: .crossgrade, toProductId: "com.example.premium.yearly", effectiveDate: periodEnd)
      return r
    }
  }

  static var priceIncreasePending: Scenario {
    var b = StateBuilder()
    b.setRenewal("priceIncreaseStatus", 0)
    b.setRenewal("renewalPrice", 7990)
    b.notifications.append(StateBuilder.note("PRICE_INCREASE", "PENDING", day(2026, 3, 13, 12, 0), "price rises to 7.99 USD; consent needed"))
    return scenario("price-increase-pending", b) { s in
      var r = report(s, at: now, .active, "now is before expiresDate", access: AccessVerdict(.yes, rule: "subscribed"),
                     renewal: .awaitsPriceConsent(date: periodEnd, newPriceMilli: 7990))
      r.priceIncrease = PriceIncreaseInfo(status: .customerHasNotResponded, newPriceMilli: 7990, currency: "USD", effectiveDate: periodEnd)
      return r
    }
  }

  static let failedRenewal = day(2026, 4, 1, 9, 30)
  static let graceEnd = day(2026, 4, 17, 9, 30)

  static func failing(_ b: inout StateBuilder) {
    b.setRenewal("isInBillingRetryPeriod", true)
    b.setRenewal("gracePeriodExpiresDate", graceEnd.whole)
    b.setRenewal("expirationIntent", 2)
    b.notifications.append(StateBuilder.note("DID_FAIL_TO_RENEW", "GRACE_PERIOD", failedRenewal, "renewal payment failed; grace period until Apr 17"))
  }

  static var grace: Scenario {
    var b = StateBuilder()
    failing(&b)
    let at = day(2026, 4, 14, 7, 30)
    return scenario("grace", b, at: at, wall: at + 37 * 60_000) { s in
      var r = report(s, at: at, .billingGracePeriod, "expiresDate passed; now is before gracePeriodExpiresDate",
                     access: AccessVerdict(.yes, rule: "in billing grace period: entitled until \(TimeText.date(graceEnd))"),
                     renewal: .none, whyNoWinBack: "in billing grace period")
      r.grace = GraceInfo(expiresDate: graceEnd, remaining: graceEnd.ms - at.ms)
      r.billingRetry = BillingRetryInfo(since: failedRenewal, retryUntil: failedRenewal + 60 * oneDay, accessDuringRetry: .none)
      return r
    }
  }

  static func retry(_ name: String, access: AccessPolicy.RetryAccess) -> Scenario {
    var b = StateBuilder()
    failing(&b)
    if access == .limited { b.policy = ["billingRetryAccess": "limited"] }
    b.notifications.append(StateBuilder.note("GRACE_PERIOD_EXPIRED", nil, graceEnd, "grace period ended; still retrying"))
    let at = day(2026, 4, 20, 12, 0)
    return scenario(name, b, at: at, wall: at + 5 * 60_000) { s in
      let verdict = access == .none ? AccessVerdict(.no, rule: "billing retry outside grace")
        : AccessVerdict(.limited, rule: "billing retry outside grace; policy grants limited access")
      var r = report(s, at: at, .billingRetry, "expiresDate passed and isInBillingRetryPeriod is true",
                     access: verdict, renewal: .none, whyNoWinBack: "in billing retry")
      r.billingRetry = BillingRetryInfo(since: failedRenewal, retryUntil: failedRenewal + 60 * oneDay, accessDuringRetry: access)
      return r
    }
  }

  static var billingRetryNone: Scenario { retry("billing-retry-none", access: .none) }
  static var billingRetryLimited: Scenario { retry("billing-retry-limited", access: .limited) }

  static var expiredVoluntaryWithWinBack: Scenario {
    var b = StateBuilder()
    b.setRenewal("autoRenewStatus", 0)
    b.setRenewal("expirationIntent", 1)
    b.notifications.append(StateBuilder.note("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", day(2026, 3, 10, 18, 5), "turned auto-renew off"))
    b.notifications.append(StateBuilder.note("EXPIRED", "VOLUNTARY", failedRenewal, "Premium Monthly expired (auto-renew off)"))
    let at = day(2026, 7, 10, 9, 0)
    return scenario("expired-voluntary-winback", b, at: at, wall: at + 12 * 60_000) { s in
      var r = report(s, at: at, .expired, "expiresDate passed and no renewal is pending",
                     access: AccessVerdict(.no, rule: "expired"), renewal: .none, whyNoWinBack: nil)
      r.expiry = ExpiryInfo(date: failedRenewal, intent: .customerCancelled, reason: ExpirationIntent.customerCancelled.description)
      r.winBack = WinBackReport(eligible: s.allWinBackOffers, whyNone: nil)
      return r
    }
  }

  static var expiredBilling: Scenario {
    var b = StateBuilder()
    b.setRenewal("expirationIntent", 2)
    b.notifications.append(StateBuilder.note("DID_FAIL_TO_RENEW", nil, failedRenewal, "renewal payment failed"))
    b.notifications.append(StateBuilder.note("EXPIRED", "BILLING_RETRY", failedRenewal + 60 * oneDay, "billing retry ended without payment"))
    let at = day(2026, 6, 5, 8, 0)
    return scenario("expired-billing", b, at: at, wall: at + 60_000) { s in
      var r = report(s, at: at, .expired, "expiresDate passed and no renewal is pending",
                     access: AccessVerdict(.no, rule: "expired"), renewal: .none,
                     whyNoWinBack: "too soon: eligible from 2026-07-01 (1 month after the subscription ended)")
      r.expiry = ExpiryInfo(date: failedRenewal + 60 * oneDay, intent: .billingError, reason: "billing error: retry period ended without payment")
      return r
    }
  }

  static var refunded: Scenario {
    var b = StateBuilder()
    b.setTransaction("revocationDate", day(2026, 3, 10, 14, 0).whole)
    b.setTransaction("revocationReason", 1)
    b.setTransaction("revocationType", "REFUND_FULL")
    b.notifications.append(StateBuilder.note("REFUND", nil, day(2026, 3, 10, 14, 0), "refunded 6.99 USD (issue in the app)"))
    return scenario("refunded", b) { s in
      var r = report(s, at: now, .revoked, "revocationDate is set: refunded or revoked",
                     access: AccessVerdict(.no, rule: "refunded: access revoked"), renewal: .none, whyNoWinBack: "refunded subscription")
      r.revocation = RevocationInfo(date: day(2026, 3, 10, 14, 0), reason: .issueInApp, type: .refundFull, text: "refunded due to an issue in the app (full refund)")
      return r
    }
  }

  static var familyShared: Scenario {
    var b = StateBuilder()
    b.setTransaction("inAppOwnershipType", "FAMILY_SHARED")
    b.setTransaction("price", 0)
    return scenario("family-shared", b) { s in
      report(s, at: now, .active, "now is before expiresDate", access: AccessVerdict(.yes, rule: "family shared: entitled through the organiser"),
             renewal: .renews(date: periodEnd, productId: premium, priceMilli: nil, currency: nil))
    }
  }

  static var askToBuyPending: Scenario {
    var b = StateBuilder()
    b.transaction = nil
    b.renewal = nil
    b.notifications = []
    b.askToBuy = ["productId": premium, "requestedDate": day(2026, 3, 14, 8, 0).whole, "status": "pending"]
    return scenario("ask-to-buy-pending", b) { s in
      var r = report(s, at: now, nil, "no transaction: never subscribed",
                     access: AccessVerdict(.no, rule: "no purchase yet: Ask to Buy request pending"), renewal: .none, whyNoWinBack: "never subscribed")
      r.askToBuy = s.subscriber.askToBuy
      return r
    }
  }

  static var newSubscriber: Scenario {
    var b = StateBuilder()
    b.transaction = nil
    b.renewal = nil
    b.notifications = []
    var s = scenario("new-subscriber", b) { s in
      report(s, at: wall, nil, "no transaction: never subscribed", access: AccessVerdict(.no, rule: "never subscribed"),
             renewal: .none, whyNoWinBack: "never subscribed")
    }
    s.clock = DashClock(simulated: nil, wall: wall)
    return s
  }

  static var fileError: Scenario {
    var s = active
    s.name = "file-error"
    let broken = Array("{\n  \"format\": \"subdash-state/1\",\n  \"subscriber\": {,\n}".utf8)
    do {
      _ = try StateFile.decode(broken, fileName: "state.json") { (n) throws(StateFileError) in throw StateFileError(file: n, message: "unused") }
    } catch {
      s.fileError = error.description
    }
    return s
  }

  /// The active subscriber, but the file says Production.
  static var production: Scenario {
    var b = StateBuilder()
    b.setTransaction("environment", "Production")
    b.setRenewal("environment", "Production")
    return scenario("production", b) { s in
      report(s, at: now, .active, "now is before expiresDate", access: AccessVerdict(.yes, rule: "subscribed"),
             renewal: .renews(date: periodEnd, productId: premium, priceMilli: 6990, currency: "USD"))
    }
  }
}
