import CoreValues
/// Everything a support person asks about a subscriber at one moment, derived purely from the
/// state and `now` (see `Lifecycle.derive`). The dashboard, `subdash show` and `show --json` all
/// render this one value, so they can never disagree.
public struct LifecycleReport: Equatable, Sendable {
  public var now: Instant
  /// Apple's status (1…5) by its precedence, or nil for someone who never subscribed.
  public var status: SubscriptionStatus?
  /// Why that status: "expiresDate 2026-12-01 is after now", "gracePeriodExpiresDate …".
  public var statusRule: String
  public var access: AccessVerdict
  public var product: SubscriptionProduct?
  public var group: SubscriptionGroup?
  public var environment: AppStoreEnvironment?
  public var ownership: OwnershipType?
  public var renewal: RenewalOutlook
  public var grace: GraceInfo?
  public var billingRetry: BillingRetryInfo?
  public var expiry: ExpiryInfo?
  public var revocation: RevocationInfo?
  public var pendingChange: PendingChange?
  public var priceIncrease: PriceIncreaseInfo?
  public var offerInEffect: OfferInfo?
  public var offerQueued: OfferInfo?
  public var askToBuy: AskToBuyRequest?
  /// The last Ask to Buy request when it no longer waits (declined, or lapsed unanswered): no
  /// App Store notification marks either, so the dashboard keeps this trace of it.
  public var askToBuyClosed: AskToBuyRequest?
  public var winBack: WinBackReport
  /// Monthly billing with a 12-month commitment: which payment, when it ends, what then.
  public var commitment: CommitmentStanding?
  /// Contradictions in the file, each one line ("gracePeriodExpiresDate is set but isInBillingRetryPeriod is false").
  public var warnings: [String]

  public init(now: Instant, status: SubscriptionStatus?, statusRule: String, access: AccessVerdict, renewal: RenewalOutlook, winBack: WinBackReport) {
    self.now = now
    self.status = status
    self.statusRule = statusRule
    self.access = access
    self.renewal = renewal
    self.winBack = winBack
    self.warnings = []
  }
}

public struct AccessVerdict: Equatable, Sendable {
  public enum Level: String, Sendable { case yes, no, limited }
  public var level: Level
  /// The rule that produced it: "subscribed: entitled", "in billing grace period: entitled until …".
  public var rule: String
  public init(_ level: Level, rule: String) {
    self.level = level
    self.rule = rule
  }
}

public enum RenewalOutlook: Equatable, Sendable {
  /// Auto-renew on: renews at `date` into `productId` at `priceMilli`.
  case renews(date: Instant, productId: String, priceMilli: Int64?, currency: String?)
  /// Auto-renew off: access ends at `date`.
  case expiresAutoRenewOff(date: Instant)
  /// A pending downgrade or crossgrade: switches at `date`.
  case switches(date: Instant, toProductId: String)
  /// Price increase awaiting consent: renews at `date` only if the customer consents.
  case awaitsPriceConsent(date: Instant, newPriceMilli: Int64?)
  /// Not active: nothing will renew (expired, revoked, in retry).
  case none
}

public struct GraceInfo: Equatable, Sendable {
  public var expiresDate: Instant
  public var remaining: Span
}

public struct BillingRetryInfo: Equatable, Sendable {
  /// When the failed renewal was due (the period's expiresDate).
  public var since: Instant
  /// Apple retries for up to 60 days from `since`.
  public var retryUntil: Instant
  public var accessDuringRetry: AccessPolicy.RetryAccess
}

public struct ExpiryInfo: Equatable, Sendable {
  public var date: Instant
  public var intent: ExpirationIntent?
  /// Human reason ("customer cancelled (auto-renew turned off)").
  public var reason: String
}

public struct RevocationInfo: Equatable, Sendable {
  public var date: Instant
  public var reason: RevocationReason?
  public var type: RevocationType?
  public var text: String
}

public struct PendingChange: Equatable, Sendable {
  public enum Kind: String, Sendable { case downgrade, crossgrade, upgrade }
  public var kind: Kind
  public var toProductId: String
  public var effectiveDate: Instant
}

public struct PriceIncreaseInfo: Equatable, Sendable {
  public var status: PriceIncreaseStatus
  public var newPriceMilli: Int64?
  public var currency: String?
  /// The renewal the increase applies to.
  public var effectiveDate: Instant?
}

public struct OfferInfo: Equatable, Sendable {
  public var type: OfferType
  public var identifier: String?
  public var discountType: OfferDiscountType?
  public var period: String?
  public var periodsRemaining: Int?
  /// "offer code Spring 2026 (pay as you go, 3 × 1 month, 2 periods left)": starts with the offer's
  /// own noun, so it needs no "offer" label before it.
  public var text: String
}

public struct WinBackReport: Equatable, Sendable {
  /// Who decided the list: SubDash's rules, or Apple (`renewalInfo.eligibleWinBackOfferIds`,
  /// trusted when SubDash lacks the history its rules need).
  public enum Source: String, Equatable, Sendable {
    case rules
    case apple
  }

  /// Eligible offers, best first.
  public var eligible: [WinBackOffer]
  /// Why none is eligible ("active subscription", "too soon: eligible from …"), nil when some are.
  public var whyNone: String?
  public var source: Source
  /// Offer IDs in Apple's list that neither the catalog nor the state file configures, in
  /// Apple's order (after `eligible` on screen).
  public var unconfiguredIds: [String]
  public init(eligible: [WinBackOffer], whyNone: String?, source: Source = .rules, unconfiguredIds: [String] = []) {
    self.eligible = eligible
    self.whyNone = whyNone
    self.source = source
    self.unconfiguredIds = unconfiguredIds
  }
}
