import CoreValues
/// How a simulated customer buys: a first purchase or a resubscription within the group.
public struct PurchaseRequest: Equatable, Sendable {
  public var productId: String
  /// Family Sharing access instead of an own purchase (inAppOwnershipType FAMILY_SHARED).
  public var familyShared: Bool
  /// Take the introductory offer when eligible (Apple's default on the purchase sheet).
  public var useIntroductoryOffer: Bool
  /// MONTHLY buys the product's "Monthly with 12-Month Commitment" plan (StoreKit's purchase
  /// option `.billingPlanType(.monthly)`); nil or BILLED_UPFRONT the product's own price.
  public var billingPlan: BillingPlanType?
  /// An offer the purchase is made with instead of the introductory offer (a code, promotional
  /// or win-back offer of the monthly plan, which starts a commitment: `CommitmentOfferStart`).
  var offer: OfferTerms? = nil

  public init(productId: String, familyShared: Bool = false, useIntroductoryOffer: Bool = true, billingPlan: BillingPlanType? = nil) {
    self.productId = productId
    self.familyShared = familyShared
    self.useIntroductoryOffer = useIntroductoryOffer
    self.billingPlan = billingPlan
  }
}

extension SimContext {
  /// A purchase at `date`: SUBSCRIBED / INITIAL_BUY the first time in the group, RESUBSCRIBE
  /// after a lapse. With Ask to Buy on, it waits for approval instead (no transaction yet).
  mutating func buy(_ request: PurchaseRequest, at date: Instant, approved: Bool = false) throws(ActionError) {
    guard let product = product(request.productId) else { throw ActionError.unknownProduct(request.productId) }
    if let current = latest?.productId, let g = state.catalog.group(of: current), g.id != product.groupID {
      throw ActionError.differentGroup(productId: request.productId)
    }
    switch Lifecycle.status(of: state.subscriber, at: date).status {
    case .active?, .billingGracePeriod?:
      throw ActionError.simulator(.alreadySubscribed(product: name(latest?.productId)))
    case .billingRetry?:
      throw ActionError.simulator(.buyDuringBillingRetry)
    default: break
    }
    if request.familyShared && !product.familyShareable {
      throw ActionError.simulator(.notFamilyShareable(product: product.displayName))
    }
    if rules.askToBuy && !approved {
      // A second request for the same product while the first waits is the same request.
      if let waiting = state.subscriber.askToBuy, waiting.productId == request.productId, waiting.isPending(at: date) {
        messages.append("Ask to Buy: \(product.displayName) was already requested on \(self.date(waiting.requestedDate)); the requests are one (waiting until \(self.date(waiting.lapseDate)))")
        return
      }
      state.subscriber.askToBuy = AskToBuyRequest(productId: request.productId, requestedDate: date)
      messages.append("Ask to Buy: \(product.displayName) is waiting for approval until \(self.date(date + AskToBuyRequest.lifetime))")
      return
    }
    let previous = latest
    var monthly: MonthlyBillingPlan?
    if request.billingPlan == .monthly {
      guard let plan = product.monthlyPlan else {
        throw ActionError.other("\(product.displayName) has no monthly billing plan with a 12-month commitment in the catalog (billingPlans, MONTHLY; only one-year products can have one).")
      }
      monthly = plan
    }
    // Offers belong to one billing plan (Apple): the monthly plan takes its own introductory
    // offer, placed among the 12 payments as CommitmentOffers.swift says.
    var offer = request.offer
    if offer == nil, request.useIntroductoryOffer, !summary.usedIntroductoryOffer {
      offer = OfferTerms.find(type: .introductory, identifier: nil, productId: request.productId, in: state, plan: monthly == nil ? nil : .monthly)
    }
    if monthly != nil, let o = offer, o.mode == .payUpFront || (o.mode == .payAsYouGo && o.monthlyPayments == nil) {
      guard request.offer == nil else {
        throw ActionError.other("\(o.mode.label) with periods of \(o.period.name) does not fit the monthly plan with a 12-month commitment, which is billed one month at a time (pay up front is the up-front plan's mode)")
      }
      offer = nil
    }
    let phase = monthly.map { commitmentStart($0, offer: offer) } ?? offer.map(start) ?? regular(request.productId)
    let expires = periodEnd(from: date, period: phase.period, keepAnchor: false)
    var t = makeTransaction(
      productId: request.productId, purchaseDate: date, expiresDate: expires, reason: .purchase, phase: phase,
      ownership: request.familyShared ? .familyShared : .purchased)
    stampCommitment(&t, phase)
    startSubscription(t, phase: phase, previous: previous, at: date)
    let subtype: NotificationSubtype = previous == nil ? .initialBuy : .resubscribe
    var text = "\(subtype == .initialBuy ? "subscribed to" : "resubscribed to") \(product.displayName)"
    // The payload keeps ISO 8601 (`P2W`); people read "2 weeks".
    if let o = phase.offer {
      let length = phase.offerPeriodText.map { (try? ISOPeriod(parsing: $0))?.name ?? $0 } ?? ""
      text += " with \(o.type.description) (\(o.mode.label), \(length))"
    }
    if monthly != nil {
      text += " billed monthly with a 12-month commitment"
      if phase.commitment?.number == 0 { text += " (payment 1 of 12 when the trial ends)" }
    }
    text += " for \(money(t.price)) until \(self.date(expires))" + commitmentNote(t)
    if request.familyShared { text += " (Family Sharing)" }
    notify(.subscribed, subtype, at: date, summary: text)
  }

  /// Makes `t` the start of a new run of renewals: auto-renew on into the same product, a fresh
  /// renewal info, and the renewal series start date kept across lapses shorter than 60 days.
  mutating func startSubscription(_ t: TransactionPayload, phase: RenewalPhase, previous: TransactionPayload?, at date: Instant) {
    record(t)
    state.subscriber.offerPeriodsRemaining = phase.offer == nil ? nil : phase.remaining
    state.subscriber.askToBuy = nil
    var info = renewalInfo
    info.recentSubscriptionStartDate = RecentSubscriptionStart.after(previous, seriesStart: info.recentSubscriptionStartDate, at: date)
    info.autoRenewStatus = .on
    info.autoRenewProductId = t.productId
    info.expirationIntent = nil
    info.isInBillingRetryPeriod = nil
    info.gracePeriodExpiresDate = nil
    info.priceIncreaseStatus = nil
    info.eligibleWinBackOfferIds = nil
    renewalInfo = info
    if let o = phase.offer, (phase.remaining ?? 0) > 0 {
      setNextRenewalOffer(o, periodText: phase.offerPeriodText)
    } else {
      setNextRenewalOffer(nil, periodText: nil)
    }
    settings.renewalCount = 0
    settings.billingIssue = nil
    settings.pendingPriceIncrease = nil
    syncCommitmentRenewal(after: t, purchase: true)
    syncRenewalInfo(at: date)
  }
}
