import Testing

@testable import DashModel
@testable import CoreValues

/// The developer-side controls (the dashboard's simulation keys and SKTestSession's methods).
@Suite struct SimulationCommandTests {
  func subscribed(start: String = "2026-05-01T00:00:00Z", _ product: String = "pass.premium.monthly") -> Sim {
    var sim = Sim(start: start)
    sim.buy(product)
    return sim
  }

  @Test func priceIncreaseConsentedRenewsAtTheNewPriceFromThenOn() {
    var sim = subscribed()
    sim.commit(Simulator.requestPriceIncrease(sim.state, newPrice: 12990, consentRequired: true, at: sim.now))
    #expect(sim.labels.last == "PRICE_INCREASE / PENDING")
    #expect(sim.info.priceIncreaseStatus == .customerHasNotResponded)
    #expect(sim.info.renewalPrice == 12990)
    sim.run(.consentPriceIncrease)
    #expect(sim.labels.last == "PRICE_INCREASE / ACCEPTED")
    #expect(sim.info.priceIncreaseStatus == .customerConsented)
    sim.next()
    sim.next()
    #expect(sim.log.suffix(2).map(\.label) == ["DID_RENEW", "DID_RENEW"])
    #expect(sim.latest.price == 12990)
    #expect(sim.info.priceIncreaseStatus == nil)
    #expect(sim.settings.priceOverride(for: "pass.premium.monthly") == 12990)
  }

  @Test func priceIncreaseWithoutAnswerExpiresAtRenewal() {
    var sim = subscribed()
    sim.run(.requestPriceIncrease)
    // The default increase is one currency unit.
    #expect(sim.info.renewalPrice == 10990)
    sim.next()
    #expect(sim.labels.last == "EXPIRED / PRICE_INCREASE")
    #expect(sim.log.last?.signedDate == Sim.at("2026-06-01T00:00:00Z"))
    #expect(sim.info.expirationIntent == .didNotConsentToPriceIncrease)
    #expect(sim.info.autoRenewStatus == .off)
    #expect(sim.status == .expired)
  }

  @Test func declinedPriceIncreaseTurnsAutoRenewOffAndExpiresAtPeriodEnd() {
    var sim = subscribed()
    sim.run(.requestPriceIncrease)
    sim.run(.declinePriceIncrease)
    #expect(sim.labels.last == "DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED")
    #expect(sim.info.priceIncreaseStatus == nil)
    #expect(sim.status == .active)
    sim.next()
    #expect(sim.labels.last == "EXPIRED / PRICE_INCREASE")
    #expect(sim.info.expirationIntent == .didNotConsentToPriceIncrease)
  }

  @Test func priceIncreaseWithoutConsentNeededIsAcceptedAtOnce() {
    var sim = subscribed()
    sim.commit(Simulator.requestPriceIncrease(sim.state, newPrice: 10490, consentRequired: false, at: sim.now))
    #expect(sim.labels.last == "PRICE_INCREASE / ACCEPTED")
    sim.next()
    #expect(sim.latest.price == 10490)
  }

  @Test func priceIncreaseMustRaiseThePrice() {
    var sim = subscribed()
    let r = Simulator.requestPriceIncrease(sim.state, newPrice: 9990, consentRequired: true, at: sim.now)
    #expect((try? r.get()) == nil)
    #expect(sim.refusal(.consentPriceIncrease)?.message == "No price increase is waiting for consent.")
  }

  @Test func refundRevokesAtOnceWithReasonAndDate() {
    var sim = subscribed()
    sim.advance(by: .days(4))
    sim.commit(Simulator.refund(sim.state, reason: .issueInApp, at: sim.now))
    #expect(sim.labels.suffix(2) == ["DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED", "REFUND"])
    #expect(sim.statuses.suffix(2) == [1, 5])
    #expect(sim.latest.revocationDate == Sim.at("2026-05-05T00:00:00Z"))
    #expect(sim.latest.revocationReason == .issueInApp)
    #expect(sim.latest.revocationType == .refundFull)
    #expect(sim.status == .revoked)
    #expect(sim.nextEvent == nil)
    // Paid time stops at the revocation: 4 days, not the month.
    #expect(sim.state.historySummary.paidMillis == Span.days(4).ms)
  }

  @Test func refundKeyUsesReasonOther() {
    var sim = subscribed()
    sim.run(.refund)
    #expect(sim.latest.revocationReason == .other)
    #expect(sim.refusal(.refund) == .revoked)
  }

  @Test func familySharingRevokeEndsSharedAccess() {
    var sim = Sim()
    sim.buy("pass.premium.monthly", family: true)
    #expect(sim.latest.inAppOwnershipType == .familyShared)
    #expect(sim.refusal(.refund)?.message.contains("only the purchaser") == true)
    sim.commit(Simulator.revokeFamilySharing(sim.state, at: sim.now))
    #expect(sim.labels.last == "REVOKE")
    #expect(sim.latest.revocationType == .familyRevoke)
    // Issue 10 item 5: Apple's revocationReason 0 for a family member's revoked access.
    #expect(sim.latest.revocationReason == .other)
    #expect(sim.status == .revoked)
  }

  @Test func aPurchasersRefundRevokesTheFamilyMemberWithTheReasonCopied() {
    var sim = Sim()
    sim.buy("pass.premium.monthly", family: true)
    sim.commit(Simulator.revokeFamilySharing(sim.state, purchaserRefund: .issueInApp, at: sim.now))
    #expect(sim.labels.last == "REVOKE")
    #expect(sim.latest.revocationReason == .issueInApp)
    #expect(sim.log.last?.summary?.hasPrefix("the purchaser was refunded") == true)
    #expect(sim.status == .revoked)
  }

  @Test func familySharingNeedsAShareableProduct() {
    var sim = Sim()
    let r = Simulator.buy(PurchaseRequest(productId: "pass.basic.monthly", familyShared: true), state: sim.state, at: sim.now)
    #expect((try? r.get()) == nil)
    sim.buy("pass.basic.monthly")
    #expect(sim.latest.inAppOwnershipType == .purchased)
  }

  @Test func expireNowEndsThePeriodAndExpiresVoluntarily() {
    var sim = subscribed()
    sim.advance(by: .days(2))
    sim.run(.expireNow)
    #expect(sim.labels.last == "EXPIRED / VOLUNTARY")
    #expect(sim.latest.expiresDate == Sim.at("2026-05-03T00:00:00Z"))
    #expect(sim.info.autoRenewStatus == .off)
    #expect(sim.info.expirationIntent == .customerCancelled)
    #expect(sim.status == .expired)
    #expect(sim.refusal(.expireNow) != nil)
  }

  /// Like Xcode's "Expire subscription": auto-renew off first (its own notification, sent while
  /// the period still runs), then the period ends at that very instant and the expiry follows.
  @Test func expireNowWithAutoRenewOnTurnsItOffFirstThenExpires() throws {
    var sim = subscribed()
    sim.advance(by: .days(2))
    let at = sim.now
    let before = sim.log.count
    let change = try Simulator.apply(.expireNow, to: sim.state, at: at).get()
    #expect(change.message == "Expired Premium Monthly now: auto-renew turned off first")
    sim.commit(change)
    #expect(sim.labels(since: before) == ["DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED", "EXPIRED / VOLUNTARY"])
    #expect(sim.log[before...].map(\.signedDate) == [at, at])
    #expect(sim.log[before...].map { $0.status } == [.active, .expired])
    #expect(sim.log[before].summary == "auto-renew turned off to expire Premium Monthly now")
    // The period ends exactly at the key press: one millisecond before it the customer had access.
    #expect(Lifecycle.status(of: sim.state.subscriber, at: at - .millisecond).status == .active)
    #expect(Lifecycle.status(of: sim.state.subscriber, at: at).status == .expired)
    // Nothing is left to happen on its own: no second EXPIRED later.
    sim.advance(by: .days(40))
    #expect(sim.labels(since: before).count == 2)
  }

  @Test func expireNowWithAutoRenewAlreadyOffOnlyExpires() throws {
    var sim = subscribed()
    sim.plan(.setAutoRenew(false))
    sim.advance(by: .days(2))
    let before = sim.log.count
    let change = try Simulator.apply(.expireNow, to: sim.state, at: sim.now).get()
    #expect(change.message == "Expired Premium Monthly now (auto-renew was already off)")
    sim.commit(change)
    #expect(sim.labels(since: before) == ["EXPIRED / VOLUNTARY"])
  }

  @Test func expireNowSaysThatAPendingDowngradeWillNotHappen() throws {
    var sim = subscribed()
    sim.plan(.downgrade(toProductId: "pass.basic.monthly"))
    sim.advance(by: .days(2))
    let before = sim.log.count
    let change = try Simulator.apply(.expireNow, to: sim.state, at: sim.now).get()
    let pending = "the switch to Basic Monthly pending for the renewal will not happen"
    #expect(change.message == "Expired Premium Monthly now: auto-renew turned off first; \(pending)")
    sim.commit(change)
    #expect(sim.log[before].summary == "auto-renew turned off to expire Premium Monthly now; \(pending)")
    // The renewal that would have switched plans never comes.
    sim.advance(by: .days(60))
    #expect(!sim.labels.contains("DID_RENEW"))
    #expect(sim.latest.productId == "pass.premium.monthly")
  }

  @Test func forceRenewalStartsANewPeriodNowAndClearsAPriceIncrease() {
    var sim = subscribed()
    sim.run(.requestPriceIncrease)
    sim.plan(.setAutoRenew(false))
    sim.advance(by: .days(10))
    sim.commit(Simulator.forceRenewal(sim.state, at: sim.now))
    #expect(sim.labels.last == "DID_RENEW")
    #expect(sim.latest.purchaseDate == Sim.at("2026-05-11T00:00:00Z"))
    #expect(sim.latest.expiresDate == Sim.at("2026-06-11T00:00:00Z"))
    #expect(sim.latest.price == 9990)
    #expect(sim.info.autoRenewStatus == .on)
    #expect(sim.info.priceIncreaseStatus == nil)
  }

  @Test func askToBuyWaitsForApproval() {
    var sim = Sim(settings: [("askToBuy", .bool(true))])
    sim.buy("pass.premium.monthly")
    #expect(sim.log.isEmpty)
    #expect(sim.state.subscriber.askToBuy?.status == .pending)
    #expect(sim.state.subscriber.latestTransaction == nil)
    sim.advance(by: .hours(3))
    sim.run(.approveAskToBuy)
    #expect(sim.labels == ["SUBSCRIBED / INITIAL_BUY"])
    #expect(sim.latest.purchaseDate == Sim.at("2026-01-01T03:00:00Z"))
    #expect(sim.state.subscriber.askToBuy == nil)
  }

  @Test func askToBuyDeclinedChargesNothing() {
    var sim = Sim { $0.settings.askToBuyEnabled = true }
    sim.buy("pass.premium.monthly")
    sim.run(.declineAskToBuy)
    #expect(sim.state.subscriber.askToBuy?.status == .declined)
    #expect(sim.state.subscriber.latestTransaction == nil)
    #expect(sim.refusal(.approveAskToBuy)?.message == "No Ask to Buy request is waiting.")
  }

  @Test func buyingWhileSubscribedIsRefused() {
    var sim = subscribed()
    let r = Simulator.buy(PurchaseRequest(productId: "pass.basic.monthly"), state: sim.state, at: sim.now)
    guard case .failure(let e) = r else { Issue.record("bought twice"); return }
    #expect(e.message.contains("Already subscribed"))
    sim.run(.advance(.days(1)))
    #expect(sim.now == Sim.at("2026-05-02T00:00:00Z"))
  }

  @Test func productionDataIsRefused() throws {
    var sim = subscribed()
    var t = sim.latest
    t.environment = .production
    sim.state.subscriber.latestTransaction = t
    for cmd in [SimCommand.advanceToNextEvent, .advance(.days(1)), .failNextRenewal, .refund, .expireNow] {
      guard case .failure(let e) = Simulator.apply(cmd, to: sim.state, at: sim.now) else {
        Issue.record("\(cmd) ran on Production data")
        continue
      }
      #expect(e == .productionData("Simulation"))
      #expect(e.message == "Simulation is refused on Production data.")
    }
    #expect(throws: ActionError.productionData("Simulation")) { try Simulator.advance(sim.state, to: sim.now + .days(40)) }
  }

  @Test func dashboardKeyAtALaterTimeFirstAppliesWhatWasDue() {
    var sim = subscribed()
    // The dashboard's clock is two months ahead of the file's: renewals are applied first, at
    // their own times, then the key.
    sim.commit(Simulator.apply(.refund, to: sim.state, at: Sim.at("2026-07-10T00:00:00Z")))
    #expect(sim.labels == ["SUBSCRIBED / INITIAL_BUY", "DID_RENEW", "DID_RENEW", "DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED", "REFUND"])
    #expect(sim.log[1].signedDate == Sim.at("2026-06-01T00:00:00Z"))
    #expect(sim.now == Sim.at("2026-07-10T00:00:00Z"))
  }
}
