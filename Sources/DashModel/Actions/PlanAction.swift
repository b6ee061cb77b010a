import CoreValues
/// A customer-side action on the subscription, the way Apple lets a customer take it.
public enum PlanAction: Equatable, Sendable {
  /// To a higher level (lower groupNumber): immediate, prorated refund of the unused time.
  case upgrade(toProductId: String)
  /// To a lower level: at the next renewal. Choosing the current product cancels a pending change.
  case downgrade(toProductId: String)
  /// Same level: immediate when the duration matches, at renewal otherwise.
  case crossgrade(toProductId: String)
  /// Redeem a typed offer code (normalised: trimmed, case-insensitive).
  case redeemOfferCode(String)
  case acceptWinBack(offerId: String)
  case setAutoRenew(Bool)
  /// Buy a plan: a first purchase, or a resubscription after a lapse (see `BuyOrResubscribe`).
  /// `billingPlan` MONTHLY buys the product's "monthly with a 12-month commitment" plan (StoreKit's
  /// purchase option `.billingPlanType(.monthly)`); nil is the product's own (up-front) price.
  case buy(productId: String, billingPlan: BillingPlanType? = nil)
  /// The developer extends the renewal date (App Store Server API, Extend a Subscription Renewal
  /// Date): support's compensation tool, not something the customer does.
  case extendRenewalDate(days: Int, reason: ExtendReasonCode)
  /// A promotional offer (`adHocOffers`) the developer's app offers; `productId` nil: the product
  /// that has `offerId` (the current one first).
  case applyPromotionalOffer(offerId: String, productId: String?)
  /// Refund one chosen transaction, as Xcode's transaction manager does (`RefundTransaction`):
  /// the latest ends access, an earlier one is revoked alone. Test data only.
  case refundTransaction(transactionId: String, prorated: Bool)
}

/// What an action would do, shown for confirmation before anything is written.
public struct ActionPreview: Equatable, Sendable {
  /// One line: "Upgrade now to Premium Monthly: refund 3.21 USD for unused time; new period ends 2026-12-22."
  public var summary: String
  public var effectiveDate: Instant
  public var refundMilli: Int64?
  /// The change waits for a renewal that is already overdue (billing grace period or retry): it
  /// takes effect when a retry succeeds, not at `effectiveDate`, which has passed.
  public var waitsForBillingRecovery: Bool
  /// What else the action changes ("cancels the pending downgrade to Individual"), from the
  /// difference between the state before and after (`PreviewAlso`), filled by `Actions.preview`.
  public var also: [String] = []
  public init(summary: String, effectiveDate: Instant, refundMilli: Int64? = nil, waitsForBillingRecovery: Bool = false) {
    self.summary = summary
    self.effectiveDate = effectiveDate
    self.refundMilli = refundMilli
    self.waitsForBillingRecovery = waitsForBillingRecovery
  }
}

/// Why an action is refused. Every case has a one-line human message; the state is unchanged.
public enum ActionError: Error, Equatable, Sendable, CustomStringConvertible {
  case noSubscription
  case revoked
  case familyShared
  case unknownProduct(String)
  case differentGroup(productId: String)
  case alreadyOnProduct(String)
  case notHigherLevel(productId: String)
  case notLowerLevel(productId: String)
  case notSameLevel(productId: String)
  case alreadyTopLevel
  case alreadyBottomLevel
  case noCrossgradeTarget
  case notActive(String)
  case autoRenewAlready(Bool)
  case emptyCode
  case unknownCode(String)
  case codeExpired(String, Instant)
  case codeLimitReached(String, limit: Int)
  case codeAlreadyUsed(String)
  case codeAlreadyRedeemedBySubscriber(String)
  case codeNotEligible(String, reason: String)
  case codeWrongGroup(String)
  case winBackNotEligible(String, reason: String)
  case unknownWinBack(String)
  case unknownPromotionalOffer(String)
  case promotionalOfferNotEligible(String, reason: String)
  case readOnly
  case productionData(String)
  /// The file's current product is not in the catalog, so its level and period are unknown.
  case currentProductUnknown(String)
  /// A switch to this product at the next renewal is already scheduled.
  case changeAlreadyPending(String)
  /// Auto-renew is off, so a change "at the next renewal" would never happen.
  case autoRenewOff
  /// The code's batch names an offer the product's codeOffers do not define.
  case codeOfferMissing(String, offerReference: String, productId: String)
  /// Another offer already waits for the next renewal (renewalInfo.offerIdentifier).
  case offerAlreadyQueued(String)
  /// A `simulation` setting the file holds is invalid; `path` is its JSON path ($.simulation.…).
  case badSetting(path: String, message: String)
  /// The simulator refused the step (see `SimRefusal`).
  case simulator(SimRefusal)
  /// Apple's extension endpoint would refuse (see `ExtensionRefusal`).
  case extensionRefused(ExtensionRefusal)
  case other(String)

  public var description: String { message }

  public var message: String {
    switch self {
    case .noSubscription: return "This subscriber has no subscription to change."
    case .revoked: return "The subscription was refunded or revoked; no plan action applies."
    case .familyShared:
      return "Shared through Family Sharing (inAppOwnershipType FAMILY_SHARED): only the family member who bought it can change or cancel it."
    case .unknownProduct(let p): return "Product \(p) is not in the catalog."
    case .differentGroup(let p): return "\(p) is in another subscription group; changes stay within one group."
    case .alreadyOnProduct(let p): return "Already subscribed to \(p)."
    case .notHigherLevel(let p): return "\(p) is not a higher level than the current plan."
    case .notLowerLevel(let p): return "\(p) is not a lower level than the current plan."
    case .notSameLevel(let p): return "\(p) is not at the same level as the current plan."
    case .alreadyTopLevel: return "Already on the highest level of the group; nothing to upgrade to."
    case .alreadyBottomLevel: return "Already on the lowest level of the group; nothing to downgrade to."
    case .noCrossgradeTarget: return "No other plan at the same level; nothing to crossgrade to."
    case .notActive(let why): return "The subscription is not active (\(why))."
    case .autoRenewAlready(let on): return "Auto-renew is already \(on ? "on" : "off")."
    case .emptyCode: return "Type an offer code first."
    case .unknownCode(let c): return "Offer code \(c) is not valid for this app."
    case .codeExpired(let c, _): return "Offer code \(c) has expired."
    case .codeLimitReached(let c, let limit): return "Offer code \(c) reached its redemption limit (\(limit))."
    case .codeAlreadyUsed(let c): return "One-time code \(c) was already used."
    case .codeAlreadyRedeemedBySubscriber(let c): return "This subscriber already redeemed the offer behind \(c)."
    case .codeNotEligible(let c, let reason): return "Offer code \(c) is not available to this subscriber: \(reason)."
    case .codeWrongGroup(let c): return "Offer code \(c) is for a subscription in another group."
    case .winBackNotEligible(let o, let reason): return "Win-back offer \(o) is not available: \(reason)."
    case .unknownWinBack(let o): return "No win-back offer \(o) in the catalog."
    case .unknownPromotionalOffer(let o): return "No promotional offer \(o) in the catalog (adHocOffers)."
    case .promotionalOfferNotEligible(let o, let reason): return "Promotional offer \(o) is not available: \(reason)."
    case .readOnly: return "Read-only mode: this dashboard does not change the file."
    case .productionData(let what): return "\(what) is refused on Production data."
    case .currentProductUnknown(let p): return "The current product \(p) is not in the catalog; plan changes need its level and period."
    case .changeAlreadyPending(let p): return "A switch to \(p) at the next renewal is already scheduled."
    case .autoRenewOff: return "Auto-renew is off, so nothing renews; turn auto-renew on before scheduling a change for the next renewal."
    case .codeOfferMissing(let c, let ref, let p): return "Offer code \(c) points at offer \"\(ref)\", which \(p) does not define in the catalog's codeOffers."
    case .offerAlreadyQueued(let o): return "Offer \(o) is already queued for the next renewal; only one offer applies at a time."
    case .badSetting(let path, let m): return "\(path): \(m)"
    case .simulator(let r): return r.message
    case .extensionRefused(let r): return r.message
    case .other(let m): return m
    }
  }
}
