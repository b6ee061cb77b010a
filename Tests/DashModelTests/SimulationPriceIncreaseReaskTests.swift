import Testing

@testable import DashModel
@testable import CoreValues

/// A customer who declined a price increase and then turns auto-renew back on (the dashboard's
/// `a` key, a scenario's `auto-renew on`): the App Store asks for consent again and never renews
/// at the old price while the increase is pending.
@Suite struct SimulationPriceIncreaseReaskTests {
  /// pass.premium.monthly bought May 1 (renews June 1), an increase to 12.99 requested on May 4
  /// and declined.
  func declined() -> Sim {
    var sim = Sim(start: "2026-05-01T00:00:00Z")
    sim.buy("pass.premium.monthly")
    sim.advance(by: .days(3))
    sim.commit(Simulator.requestPriceIncrease(sim.state, newPrice: 12990, consentRequired: true, at: sim.now))
    sim.run(.declinePriceIncrease)
    return sim
  }

  @Test func autoRenewOnAfterDecliningAsksForConsentAgain() throws {
    var sim = declined()
    let before = sim.log.count
    let change = try Actions.apply(.setAutoRenew(true), to: sim.state, at: sim.now).get()
    sim.commit(change)
    #expect(sim.labels(since: before) == ["DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_ENABLED", "PRICE_INCREASE / PENDING"])
    #expect(sim.log.suffix(2).map(\.signedDate) == [Sim.at("2026-05-04T00:00:00Z"), Sim.at("2026-05-04T00:00:00Z")])
    #expect(sim.info.autoRenewStatus == .on)
    #expect(sim.info.priceIncreaseStatus == .customerHasNotResponded)
    #expect(sim.info.renewalPrice == 12990)
    #expect(sim.settings.pendingPriceIncrease?.response == .pending)
    #expect(change.message.contains("12.99"))
    #expect(change.message.contains("consent"))
  }

  @Test func withoutConsentItExpiresAtRenewalInsteadOfRenewingAtTheOldPrice() {
    var sim = declined()
    sim.plan(.setAutoRenew(true))
    sim.advance(to: Sim.at("2026-06-01T00:00:00Z") - .millisecond)
    #expect(sim.status == .active)
    #expect(sim.labels.last == "PRICE_INCREASE / PENDING")
    sim.next()
    #expect(sim.labels.last == "EXPIRED / PRICE_INCREASE")
    #expect(sim.log.last?.signedDate == Sim.at("2026-06-01T00:00:00Z"))
    #expect(sim.info.expirationIntent == .didNotConsentToPriceIncrease)
    #expect(sim.status == .expired)
    #expect(sim.latest.price == 9990)
    #expect(sim.settings.pendingPriceIncrease == nil)
  }

  @Test func consentAfterTheNewRequestRenewsAtTheNewPrice() {
    var sim = declined()
    sim.plan(.setAutoRenew(true))
    sim.run(.consentPriceIncrease)
    #expect(sim.labels.last == "PRICE_INCREASE / ACCEPTED")
    sim.next()
    #expect(sim.labels.last == "DID_RENEW")
    #expect(sim.latest.price == 12990)
    #expect(sim.latest.purchaseDate == Sim.at("2026-06-01T00:00:00Z"))
  }

  /// A file where auto-renew was turned back on by something other than SubDash (a hand edit)
  /// still holds the declined increase: the renewal is not charged at the old price either.
  @Test func handEditedAutoRenewOnWithADeclinedIncreaseStillExpires() {
    var sim = declined()
    var info = sim.info
    info.autoRenewStatus = .on
    sim.state.subscriber.renewalInfo = info
    sim.next()
    #expect(sim.labels.last == "EXPIRED / PRICE_INCREASE")
    #expect(sim.info.expirationIntent == .didNotConsentToPriceIncrease)
  }
}

/// Support presses `p` once: the customer is asked once. A second `p` before they answer, or
/// after they consented, is "not now" with the reason, and changes nothing.
@Suite struct SimulationPriceIncreaseOnceTests {
  func requested() -> Sim {
    var sim = Sim(start: "2026-05-01T00:00:00Z")
    sim.buy("pass.premium.monthly")
    sim.advance(by: .days(3))
    sim.run(.requestPriceIncrease)
    return sim
  }

  @Test func askingAgainWhileTheCustomerHasNotAnsweredIsRefused() {
    var sim = requested()
    let before = sim.log.count
    let refusal = sim.refusal(.requestPriceIncrease)
    #expect(refusal?.message == "A price increase to 10.99 USD is already waiting for the customer's consent (P consents, N declines).")
    #expect(sim.log.count == before)
    #expect(sim.settings.pendingPriceIncrease?.response == .pending)
  }

  @Test func askingAgainAfterConsentIsRefusedAndTheConsentStands() {
    var sim = requested()
    sim.run(.consentPriceIncrease)
    let before = sim.log.count
    let refusal = sim.refusal(.requestPriceIncrease)
    #expect(refusal?.message == "The customer already consented to 10.99 USD; it applies at the next renewal, so there is no increase to ask for now.")
    #expect(sim.log.count == before)
    #expect(sim.info.priceIncreaseStatus == .customerConsented)
    sim.next()
    #expect(sim.labels.last == "DID_RENEW")
    #expect(sim.latest.price == 10990)
  }

  @Test func afterTheNewPriceTookEffectAFurtherIncreaseCanBeAsked() {
    var sim = requested()
    sim.run(.consentPriceIncrease)
    sim.next()
    #expect(sim.refusal(.requestPriceIncrease) == nil)
  }
}
