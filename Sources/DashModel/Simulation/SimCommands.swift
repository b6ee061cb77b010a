import CoreValues
/// The developer-side controls, with SKTestSession's semantics where it has a matching method
/// (reference §5). Each one acts at `date` on a context whose due events are already applied.
extension SimContext {
  /// SKTestSession `refundTransaction`: always approved, immediate; access ends. It also approves
  /// a pending refund request (CONSUMPTION_REQUEST). `prorated`: REFUND_PRORATED with
  /// `revocationPercentage` the share of the period not yet used (see `proratedPercentage`).
  mutating func refund(at date: Instant, reason given: RevocationReason? = nil, prorated: Bool = false) throws(ActionError) {
    var t = try refundableTransaction()
    // Approving a request: a fulfillment issue is "an actual or perceived issue within your app"
    // (revocationReason 1); every other reason is 0 (other).
    let reason = given ?? (settings.refundRequest?.reason == .fulfillmentIssue ? .issueInApp : .other)
    turnAutoRenewOffForRevocation(at: date, why: "after a refund request")
    settings.refundRequest = nil
    t.revocationDate = date
    t.revocationReason = reason
    t.revocationType = prorated ? .refundProrated : .refundFull
    // Apple's revocationPercentage page: present for refunded transactions, 100000 for 100 %.
    t.revocationPercentage = 100_000
    var amount = t.price
    if prorated {
      let share = Self.proratedPercentage(of: t, at: date)
      t.revocationPercentage = share
      amount = Self.refundedAmount(of: t, share: share)
    }
    t.signedDate = date
    record(t)
    endBillingState()
    let how = prorated ? "prorated refund of \(money(amount)) (\(Format.milliPercent(t.revocationPercentage ?? 0)) of \(money(t.price)), the unused time)" : "refunded \(money(t.price))"
    let summary = "\(how) for \(name(t.productId)) (\(reason.description)); access ends"
    notify(.refund, at: date, summary: summary)
    // The status line names the refund, not the AUTO_RENEW_DISABLED that comes first.
    headline = summary
  }

  /// Family Sharing access ends (the purchaser stopped sharing or left the family): REVOKE with
  /// `revocationReason` 0 (Apple's revocationReason page: 0 for "other reasons", which covers a
  /// family member losing access). `purchaserRefund`: the purchaser was refunded, so Apple revokes
  /// the family members too and copies the purchaser's refund reason.
  mutating func revokeFamilySharing(at date: Instant, purchaserRefund: RevocationReason? = nil) throws(ActionError) {
    guard var t = latest else { throw ActionError.noSubscription }
    guard t.revocationDate == nil else { throw ActionError.revoked }
    guard t.isFamilyShared else {
      throw ActionError.simulator(.revokeOfPurchase)
    }
    turnAutoRenewOffForRevocation(at: date, why: nil)
    t.revocationDate = date
    t.revocationReason = purchaserRefund ?? .other
    t.revocationType = .familyRevoke
    t.signedDate = date
    record(t)
    endBillingState()
    let why = purchaserRefund.map { "the purchaser was refunded (\($0.description)), so " } ?? ""
    notify(.revoke, at: date, summary: "\(why)Family Sharing access to \(name(t.productId)) was revoked; access ends")
  }

  /// A refund request turns auto-renew off first (Apple sends DID_CHANGE_RENEWAL_STATUS /
  /// AUTO_RENEW_DISABLED "after the user requested a refund").
  mutating func turnAutoRenewOffForRevocation(at date: Instant, why: String?) {
    guard renewalInfo.autoRenewOn else { return }
    renewalInfo.autoRenewStatus = .off
    renewalInfo.signedDate = date
    if let why { notify(.didChangeRenewalStatus, .autoRenewDisabled, at: date, summary: "auto-renew turned off \(why)") }
  }

  mutating func endBillingState() {
    settings.billingIssue = nil
    settings.pendingPriceIncrease = nil
    var info = renewalInfo
    if info.isInBillingRetryPeriod != nil { info.isInBillingRetryPeriod = false }
    info.gracePeriodExpiresDate = nil
    info.priceIncreaseStatus = nil
    renewalInfo = info
    state.subscriber.offerPeriodsRemaining = nil
  }

  /// SKTestSession `expireSubscription` ("disables auto-renew and changes the subscription's
  /// expiration date to the current system time"), like Xcode's transaction manager "Expire
  /// subscription". In App Store terms that is two steps at the same instant, each with its own
  /// notification: auto-renew off first (DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED, status 1:
  /// the period has not ended yet), then the period ends now and the expiration follows at once
  /// (EXPIRED / VOLUNTARY, expirationIntent 1, status 2). A server that tracks auto-renew from
  /// DID_CHANGE_RENEWAL_STATUS would otherwise still think this subscriber renews.
  ///
  /// A downgrade or crossgrade pending for the renewal can no longer happen, since nothing renews;
  /// it is named in both texts rather than dropped silently. `autoRenewProductId` keeps it, as
  /// Apple's renewal info keeps the product that would renew when auto-renew is turned off.
  mutating func expireNow(at date: Instant) throws(ActionError) {
    guard var t = latest else { throw ActionError.noSubscription }
    guard t.revocationDate == nil else { throw ActionError.revoked }
    let status = Lifecycle.status(of: state.subscriber, at: date).status
    // In grace the customer still has access: "not active (already lapsed)" would contradict ACCESS: YES.
    if status == .billingGracePeriod {
      throw ActionError.simulator(.expireInGrace(graceEnds: settings.billingIssue?.gracePeriodExpiresDate.map { Format.date($0) }))
    }
    guard status == .active else {
      throw ActionError.notActive("it has already lapsed")
    }
    var pending = ""
    if let next = renewalInfo.autoRenewProductId, next != t.productId {
      pending = "; the switch to \(name(next)) pending for the renewal will not happen"
    }
    let wasOn = renewalInfo.autoRenewOn
    if wasOn {
      renewalInfo.autoRenewStatus = .off
      renewalInfo.signedDate = date
      notify(.didChangeRenewalStatus, .autoRenewDisabled, at: date,
             summary: "auto-renew turned off to expire \(name(t.productId)) now\(pending)")
    }
    t.expiresDate = date
    state.subscriber.latestTransaction = t
    renewalInfo.renewalDate = date
    renewalInfo.signedDate = date
    settings.periodAnchor = nil
    // The expiration event, applied here rather than left to the event loop so that it is part
    // of this step whatever the clock says (it is the event `advance` would apply at `date`).
    process(SimEvent(date: date, kind: .expiration))
    headline = wasOn
      ? "Expired \(name(t.productId)) now: auto-renew turned off first\(pending)"
      : "Expired \(name(t.productId)) now (auto-renew was already off)\(pending)"
  }

  /// SKTestSession `forceRenewalOfSubscription`: the current period ends now and a new one
  /// starts, auto-renew is turned on and a pending price increase is cleared.
  mutating func forceRenewal(at date: Instant) throws(ActionError) {
    guard let t = latest else { throw ActionError.noSubscription }
    guard t.revocationDate == nil else { throw ActionError.revoked }
    guard settings.billingIssue == nil else {
      throw ActionError.simulator(.forceRenewDuringBillingIssue)
    }
    var ended = t
    ended.expiresDate = date
    state.subscriber.latestTransaction = ended
    renewalInfo.autoRenewStatus = .on
    renewalInfo.priceIncreaseStatus = nil
    settings.pendingPriceIncrease = nil
    let renewed = renew(purchaseDate: date, periodStart: date, keepAnchor: false)
    settings.renewalCount += 1
    notify(.didRenew, at: date, summary: "forced renewal: " + renewalSummary(renewed))
  }

  /// SKTestSession `requestPriceIncreaseConsentForTransaction`. `newPrice` defaults to the
  /// regular price plus one currency unit. Without consent required (Apple's small, infrequent
  /// increases) the increase is accepted at once.
  mutating func requestPriceIncrease(at date: Instant, newPrice: Int64?, consentRequired: Bool = true) throws(ActionError) {
    guard let t = latest else { throw ActionError.noSubscription }
    guard t.revocationDate == nil else { throw ActionError.revoked }
    let serving = Lifecycle.status(of: state.subscriber, at: date).status
    guard serving == .active || serving == .billingGracePeriod || serving == .billingRetry, renewalInfo.autoRenewOn else {
      throw ActionError.notActive("nothing will renew, so there is nothing to raise the price of")
    }
    // Inside a 12-month commitment the increase is for what renews at the commitment's end.
    let inCommitment = try commitmentIncreaseTarget(t)
    let productId = inCommitment?.productId ?? renewalInfo.autoRenewProductId ?? t.productId ?? ""
    // One increase at a time: asking again while the customer has not answered would send a
    // second PENDING, and asking after they consented would undo their consent.
    if let p = settings.pendingPriceIncrease, p.productId == productId {
      switch p.response {
      case .pending: throw ActionError.simulator(.priceIncreaseAlreadyPending(new: money(p.newPriceMilli)))
      case .accepted: throw ActionError.simulator(.priceIncreaseAlreadyAccepted(new: money(p.newPriceMilli)))
      case .declined: break
      }
    }
    let old = inCommitment?.oldPriceMilli ?? regularPrice(productId) ?? 0
    let price = newPrice ?? old + 1000
    guard price > old else {
      throw ActionError.simulator(.notAnIncrease(new: money(price), old: money(old)))
    }
    settings.pendingPriceIncrease = PendingPriceIncrease(
      productId: productId, newPriceMilli: price, requestedDate: date, response: consentRequired ? .pending : .accepted)
    renewalInfo.priceIncreaseStatus = consentRequired ? .customerHasNotResponded : .customerConsented
    renewalInfo.signedDate = date
    syncRenewalInfo(at: date)
    refreshCommitmentRenewalPrice()
    if let target = inCommitment {
      let unit = target.monthly ? " a month" : ""
      let consent = consentRequired ? "consent needed before then" : "no consent needed"
      notify(.priceIncrease, consentRequired ? .pending : .accepted, at: date,
             summary: "price of \(name(productId)) rises from \(money(old)) to \(money(price))\(unit) when the commitment renews on \(target.startsText) (\(target.untouched)); \(consent)")
    } else if consentRequired {
      notify(.priceIncrease, .pending, at: date, summary: "price of \(name(productId)) rises from \(money(old)) to \(money(price)); consent needed before the renewal")
    } else {
      notify(.priceIncrease, .accepted, at: date, summary: "price of \(name(productId)) rises from \(money(old)) to \(money(price)); no consent needed")
    }
  }

  /// SKTestSession `consentToPriceIncreaseForTransaction`: renews at the new price.
  /// A price increase applies to the next renewal: once the subscription has lapsed for good
  /// (expired or revoked) there is none, so consent or decline would answer nothing.
  private func requireRenewalAhead(at date: Instant) throws(ActionError) {
    switch Lifecycle.status(of: state.subscriber, at: date).status {
    case .expired?, .revoked?: throw ActionError.notActive("it has lapsed, so no renewal is ahead for a price increase to apply to")
    default: return
    }
  }

  mutating func consentPriceIncrease(at date: Instant) throws(ActionError) {
    guard var p = settings.pendingPriceIncrease, p.response == .pending else {
      throw ActionError.simulator(.noPriceIncreasePending)
    }
    try requireRenewalAhead(at: date)
    p.response = .accepted
    settings.pendingPriceIncrease = p
    renewalInfo.priceIncreaseStatus = .customerConsented
    renewalInfo.signedDate = date
    notify(.priceIncrease, .accepted, at: date, summary: "customer consented to \(money(p.newPriceMilli)) for \(name(p.productId))")
  }

  /// SKTestSession `declinePriceIncreaseForTransaction`: auto-renew off, the pending status
  /// removed; the subscription expires at the end of the period with EXPIRED / PRICE_INCREASE.
  mutating func declinePriceIncrease(at date: Instant) throws(ActionError) {
    guard var p = settings.pendingPriceIncrease, p.response == .pending else {
      throw ActionError.simulator(.noPriceIncreasePending)
    }
    try requireRenewalAhead(at: date)
    p.response = .declined
    settings.pendingPriceIncrease = p
    renewalInfo.priceIncreaseStatus = nil
    renewalInfo.signedDate = date
    // Inside a commitment, declining cancels the commitment's renewal only: the remaining
    // monthly payments are still due (Apple: a cancellation applies to the annual renewal).
    if let t = latest, paysInsideCommitment(after: t), var rc = renewalInfo.commitmentInfo {
      rc.commitmentAutoRenewStatus = .off
      renewalInfo.commitmentInfo = rc
      syncRenewalInfo(at: date)
      refreshCommitmentRenewalPrice()
      let end = commitmentPeriod(t)?.commitmentExpiresDate.map(self.date) ?? "its end"
      notify(.didChangeRenewalStatus, .autoRenewDisabled, at: date,
             summary: "customer declined the price increase; the commitment's remaining payments are still due and it ends on \(end)")
      return
    }
    renewalInfo.autoRenewStatus = .off
    syncRenewalInfo(at: date)
    notify(.didChangeRenewalStatus, .autoRenewDisabled, at: date, summary: "customer declined the price increase; expires at the end of the period")
  }

  /// Queues a failure for the next renewal attempt, ahead of any scripted outcome.
  mutating func failNextRenewal() throws(ActionError) {
    guard latest != nil else { throw ActionError.noSubscription }
    // Outcomes are used only by renewals; one queued while none is due would surprise a later
    // resubscription, long after the key was pressed.
    guard pendingEvents().contains(where: { $0.kind == .renewal }) else { throw ActionError.simulator(.noRenewalScheduled) }
    settings.renewalOutcomes.insert(.fail, at: 0)
    messages.append("the next renewal will fail")
  }

  /// Turns off every failure armed for coming renewals, however it was armed (the `f` key, a
  /// scenario's outcomes, `--fail-renewals`, a failure rate, the catalog's
  /// `_renewalBillingIssuesEnabled`): the undo a developer needs after trying billing retry.
  mutating func renewalsSucceed() throws(ActionError) {
    let armed = Simulator.armedFailures(settings: settings, rules: rules)
    guard !armed.isEmpty else { throw ActionError.simulator(.nothingArmed) }
    settings.renewalOutcomes = []
    // An explicit false, not nil: nil would fall back to the catalog's billing-issues switch.
    settings.failRenewals = rules.failRenewals || settings.failRenewals != nil ? false : nil
    settings.failureRate = nil
    messages.append("coming renewals succeed: turned off " + armed.joined(separator: ", "))
  }

  mutating func approveAskToBuy(at date: Instant) throws(ActionError) {
    let request = try waitingAskToBuy(at: date)
    try buy(PurchaseRequest(productId: request.productId), at: date, approved: true)
  }

  mutating func declineAskToBuy(at date: Instant) throws(ActionError) {
    var request = try waitingAskToBuy(at: date)
    request.status = .declined
    state.subscriber.askToBuy = request
    messages.append("Ask to Buy for \(name(request.productId)) was declined; nothing was charged")
  }

  /// "the Ask to Buy request for Premium lapsed at …" when a request still waiting at `from`
  /// lapses by `to`: the banner goes, and the step says why instead of "nothing happened".
  func askToBuyLapse(after from: Instant, upTo to: Instant) -> String? {
    guard let request = state.subscriber.askToBuy, request.isPending(at: from), request.lapseDate <= to else { return nil }
    return "the Ask to Buy request for \(name(request.productId)) lapsed at \(date(request.lapseDate)) (no answer within 24 hours; nothing was charged)"
  }

  /// The request a parent can still answer at `date`, or why there is none.
  private func waitingAskToBuy(at date: Instant) throws(ActionError) -> AskToBuyRequest {
    guard let request = state.subscriber.askToBuy, request.status == .pending else {
      throw ActionError.simulator(.noAskToBuyPending)
    }
    guard request.isPending(at: date) else {
      throw ActionError.simulator(.askToBuyLapsed(product: name(request.productId), lapsedOn: self.date(request.lapseDate)))
    }
    return request
  }
}
