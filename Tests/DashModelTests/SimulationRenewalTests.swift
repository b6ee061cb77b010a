import Testing

@testable import DashModel
@testable import CoreValues
@testable import SimulationRuns

/// Renewals on time: offers stepping forward, calendar anchors, pending plan changes, scripted
/// outcomes, the sandbox cap, and the clock itself.
@Suite struct SimulationRenewalTests {
  @Test func introFreeWeekThenRegularPrice() {
    var sim = Sim(start: "2026-01-15T09:30:00Z")
    sim.buy("pass.premium.monthly", intro: true)
    #expect(sim.latest.offerType == .introductory)
    #expect(sim.latest.offerDiscountType == .freeTrial)
    #expect(sim.latest.offerPeriod == "P1W")
    #expect(sim.latest.price == 0)
    #expect(sim.latest.expiresDate == Sim.at("2026-01-22T09:30:00Z"))
    #expect(sim.info.renewalPrice == 9990)
    sim.next()
    #expect(sim.labels == ["SUBSCRIBED / INITIAL_BUY", "DID_RENEW"])
    #expect(sim.latest.offerType == nil)
    #expect(sim.latest.price == 9990)
    #expect(sim.latest.transactionReason == .renewal)
    #expect(sim.latest.originalTransactionId == Identifiers.transactionId(sequence: 0))
    #expect(sim.latest.expiresDate == Sim.at("2026-02-22T09:30:00Z"))
  }

  @Test func introIsOfferedOnlyOncePerGroup() {
    var sim = Sim()
    sim.buy("pass.premium.monthly", intro: true)
    sim.plan(.setAutoRenew(false))
    sim.next()
    sim.advance(by: .days(3))
    sim.buy("pass.premium.monthly", intro: true)
    #expect(sim.labels.last == "SUBSCRIBED / RESUBSCRIBE")
    #expect(sim.latest.offerType == nil)
    #expect(sim.latest.price == 9990)
  }

  @Test func monthEndAnchorDoesNotDrift() {
    var sim = Sim(start: "2026-01-31T12:00:00Z")
    sim.buy("pass.premium.monthly")
    var ends: [Instant] = [sim.latest.expiresDate!]
    for _ in 0..<3 {
      sim.next()
      ends.append(sim.latest.expiresDate!)
    }
    #expect(ends == ["2026-02-28T12:00:00Z", "2026-03-31T12:00:00Z", "2026-04-30T12:00:00Z", "2026-05-31T12:00:00Z"].map(Sim.at))
  }

  @Test func pendingDowngradeTakesEffectAtRenewal() {
    var sim = Sim(start: "2026-02-01T00:00:00Z")
    sim.buy("pass.premium.monthly")
    sim.advance(by: .days(10))
    sim.plan(.downgrade(toProductId: "pass.basic.weekly"))
    #expect(sim.labels.last == "DID_CHANGE_RENEWAL_PREF / DOWNGRADE")
    #expect(sim.latest.productId == "pass.premium.monthly")
    sim.next()
    #expect(sim.labels.last == "DID_RENEW")
    #expect(sim.latest.productId == "pass.basic.weekly")
    #expect(sim.latest.price == 1990)
    #expect(sim.latest.purchaseDate == Sim.at("2026-03-01T00:00:00Z"))
    #expect(sim.latest.expiresDate == Sim.at("2026-03-08T00:00:00Z"))
    #expect(sim.info.productId == "pass.basic.weekly")
  }

  @Test func queuedCodeOfferAppliesAtTheNextRenewalForItsPeriods() {
    var sim = Sim(start: "2026-04-01T00:00:00Z")
    sim.commit(ScenarioRunner.declare(code: "SPRING26", offerReference: "Spring 2026", limit: nil, in: sim.state))
    sim.buy("pass.premium.monthly")
    sim.plan(.redeemOfferCode("SPRING26"))
    #expect(sim.info.offerType == .offerCode)
    var prices: [Int64?] = []
    var offers: [OfferType?] = []
    for _ in 0..<4 {
      sim.next()
      prices.append(sim.latest.price)
      offers.append(sim.latest.offerType)
    }
    #expect(prices == [4990, 4990, 4990, 9990])
    #expect(offers == [.offerCode, .offerCode, .offerCode, nil])
    #expect(sim.latest.offerIdentifier == nil)
    #expect(sim.info.offerType == nil)
  }

  @Test func outcomeQueueIsConsumedOnePerRenewal() {
    var sim = Sim(settings: [("gracePeriod", .int(3)), ("renewalOutcomes", .array(["ok", "recover-in-grace", "ok"].map(JSON.string)))])
    sim.buy("pass.premium.monthly")
    for _ in 0..<4 { sim.next() }
    #expect(sim.labels == ["SUBSCRIBED / INITIAL_BUY", "DID_RENEW", "DID_FAIL_TO_RENEW / GRACE_PERIOD", "DID_RENEW / BILLING_RECOVERY", "DID_RENEW"])
    // Halfway through the 3-day grace that began on Mar 1.
    #expect(sim.log[3].signedDate == Sim.at("2026-03-02T12:00:00Z"))
    #expect(sim.settings.renewalOutcomes.isEmpty)
  }

  @Test func failNextRenewalGoesAheadOfTheQueue() {
    var sim = Sim(settings: [("renewalOutcomes", .array([.string("ok")]))])
    sim.buy("pass.premium.monthly")
    sim.run(.failNextRenewal)
    #expect(sim.settings.renewalOutcomes == [.fail, .ok])
    sim.next()
    #expect(sim.labels.last == "DID_FAIL_TO_RENEW")
  }

  /// S in the dashboard: whatever armed the failures (f, a scenario's outcomes, --fail-renewals,
  /// a failure rate), the next renewal succeeds again, and the file says so.
  @Test func renewalsSucceedTurnsEveryArmedFailureOff() {
    var sim = Sim(settings: [("failRenewals", .bool(true)), ("failureRate", .double(0.3)), ("renewalOutcomes", .array([.string("ok")]))])
    sim.buy("pass.premium.monthly")
    sim.run(.failNextRenewal)
    #expect(Simulator.summary(sim.state)?.armed == ["next renewal fails", "scripted outcomes: fail, ok", "every renewal fails", "failure rate 30%"])
    sim.run(.renewalsSucceed)
    #expect(Simulator.summary(sim.state)?.armed == [])
    #expect(sim.settings.failRenewals == false)
    #expect(sim.settings.failureRate == nil)
    #expect(sim.settings.renewalOutcomes.isEmpty)
    sim.next()
    #expect(sim.labels.last == "DID_RENEW")
  }

  /// The catalog's billing-issues switch is turned off by an explicit false in the file (nil
  /// would fall back to the catalog and keep failing).
  @Test func renewalsSucceedOverridesTheCatalogsBillingIssueSwitch() {
    var sim = Sim { $0.settings.renewalBillingIssuesEnabled = true }
    sim.buy("pass.premium.monthly")
    sim.run(.renewalsSucceed)
    #expect(sim.settings.failRenewals == false)
    sim.next()
    #expect(sim.labels.last == "DID_RENEW")
  }

  @Test func renewalsSucceedWithNothingArmedSaysSo() {
    var sim = Sim()
    sim.buy("pass.premium.monthly")
    #expect(sim.refusal(.renewalsSucceed) == .simulator(.nothingArmed))
  }

  /// A file imported from the App Store holds Apple's ids, far above the simulator's own
  /// sequence: the renewal's ids come after them, as the App Store's only grow.
  @Test func simulatedIdsComeAfterTheFilesExistingIds() {
    var sim = Sim()
    sim.buy("pass.premium.monthly")
    sim.state.subscriber.latestTransaction?.transactionId = "2000000987654321"
    sim.state.subscriber.latestTransaction?.webOrderLineItemId = "3000000555555555"
    sim.next()
    #expect(sim.latest.transactionId == "2000000987654322")
    #expect(sim.latest.webOrderLineItemId == "3000000555555556")
    sim.next()
    #expect(sim.latest.transactionId == "2000000987654323")
  }

  /// Ids that are not numbers (a hand-written file's "t1") or at the top of 64 bits are not
  /// counted past; the simulator's own sequence goes on.
  @Test func idsThatAreNotNumbersLeaveTheSequenceAlone() {
    var sim = Sim()
    sim.buy("pass.premium.monthly")
    sim.state.subscriber.latestTransaction?.transactionId = "t1"
    sim.next()
    #expect(sim.latest.transactionId == Identifiers.transactionId(sequence: 1))
    sim.state.subscriber.latestTransaction?.transactionId = "18446744073709551615"
    sim.next()
    #expect(sim.latest.transactionId == Identifiers.transactionId(sequence: 2))
  }

  @Test func catalogBillingIssueSwitchFailsEveryRenewal() {
    var sim = Sim { $0.settings.renewalBillingIssuesEnabled = true }
    sim.buy("pass.premium.monthly")
    sim.next()
    #expect(sim.labels.last == "DID_FAIL_TO_RENEW")
  }

  @Test func randomFailuresFollowTheSeed() {
    func run(seed: Int) -> [String] {
      var sim = Sim(settings: [("failureRate", .double(0.5)), ("seed", .int(seed)), ("gracePeriod", .int(28)), ("renewalOutcomes", .array([]))])
      sim.buy("pass.premium.monthly")
      for _ in 0..<12 {
        sim.next()
        if sim.settings.billingIssue != nil { sim.run(.resolveBillingIssue) }
      }
      return sim.labels
    }
    #expect(run(seed: 7) == run(seed: 7))
    #expect(run(seed: 7).contains("DID_FAIL_TO_RENEW / GRACE_PERIOD"))
    #expect(run(seed: 7) != run(seed: 8))
  }

  @Test func sandboxCapTurnsAutoRenewOffOnTheThirteenthAttempt() {
    var sim = Sim(start: "2026-07-01T09:00:00Z", settings: [("timeRate", .string("sandbox-5m"))])
    sim.buy("pass.premium.monthly")
    for _ in 0..<13 { sim.next() }
    #expect(sim.labels.filter { $0 == "DID_RENEW" }.count == 12)
    #expect(sim.labels.last == "EXPIRED / VOLUNTARY")
    #expect(sim.log.last?.signedDate == Sim.at("2026-07-01T10:05:00Z"))
    #expect(sim.info.expirationIntent == .customerCancelled)
    #expect(sim.nextEvent == nil)
  }

  @Test func capCanBeSetOrTurnedOff() {
    var three = Sim(settings: [("sandboxRenewalCap", .int(3))])
    three.buy("pass.premium.monthly")
    for _ in 0..<4 { three.next() }
    #expect(three.labels.last == "EXPIRED / VOLUNTARY")

    var off = Sim(settings: [("timeRate", .string("sandbox")), ("sandboxRenewalCap", .bool(false))])
    off.buy("pass.premium.monthly")
    for _ in 0..<20 { off.next() }
    #expect(off.labels.filter { $0 == "DID_RENEW" }.count == 20)
  }

  @Test func autoRenewOffExpiresVoluntarilyAtPeriodEnd() {
    var sim = Sim()
    sim.buy("pass.premium.monthly")
    sim.plan(.setAutoRenew(false))
    #expect(sim.nextEvent == SimEvent(date: Sim.at("2026-02-01T00:00:00Z"), kind: .expiration))
    sim.advance(to: "2026-02-01T00:00:00Z")
    #expect(sim.labels.last == "EXPIRED / VOLUNTARY")
    #expect(sim.log.last?.status == .expired)
    #expect(sim.info.expirationIntent == .customerCancelled)
  }

  @Test func advanceAppliesEveryDueEventInOrderAndSetsTheClock() {
    var sim = Sim()
    sim.buy("pass.premium.monthly")
    sim.advance(to: "2026-06-15T00:00:00Z")
    #expect(sim.labels.count == 6)
    #expect(sim.now == Sim.at("2026-06-15T00:00:00Z"))
    let dates = sim.log.compactMap(\.signedDate)
    #expect(dates == dates.sorted())
  }

  @Test func theClockNeverGoesBack() {
    var sim = Sim(start: "2026-03-01T00:00:00Z")
    sim.buy("pass.premium.monthly")
    sim.advance(to: "2026-01-01T00:00:00Z")
    #expect(sim.now == Sim.at("2026-03-01T00:00:00Z"))
  }

  @Test func nothingScheduledIsARefusal() {
    var sim = Sim()
    #expect(sim.nextEvent == nil)
    #expect(sim.refusal(.advanceToNextEvent)?.message.contains("Nothing is scheduled") == true)
  }

  @Test func winBackEligibilityIsRecomputedAsTimePasses() {
    var sim = Sim(start: "2026-01-05T10:00:00Z")
    sim.buy("pass.premium.monthly")
    sim.advance(to: "2026-03-10T00:00:00Z")
    sim.plan(.setAutoRenew(false))
    sim.next()
    #expect(sim.labels.last == "EXPIRED / VOLUNTARY")
    #expect(sim.info.eligibleWinBackOfferIds == nil)
    // One month after the lapse (Apr 5) the half-price offer opens; two months, the free month.
    #expect(sim.nextEvent == SimEvent(date: Sim.at("2026-05-05T10:00:00Z"), kind: .winBackEligibility))
    sim.advance(to: "2026-05-05T09:59:59.999Z")
    #expect(sim.info.eligibleWinBackOfferIds == nil)
    sim.advance(by: .millisecond)
    #expect(sim.info.eligibleWinBackOfferIds == ["premium.winback.half"])
    sim.next()
    #expect(sim.now == Sim.at("2026-06-05T10:00:00Z"))
    #expect(sim.info.eligibleWinBackOfferIds == ["premium.winback.free", "premium.winback.half"])
  }

  @Test func noWinBackWhileInGraceOrRetry() {
    var sim = Sim(start: "2026-01-05T10:00:00Z", settings: [("gracePeriod", .int(16)), ("renewalOutcomes", .array(["ok", "ok", "ok", "fail"].map(JSON.string)))])
    sim.buy("pass.premium.monthly")
    sim.advance(to: "2026-06-10T00:00:00Z")
    #expect(sim.status == .billingRetry)
    #expect(sim.info.eligibleWinBackOfferIds == nil)
    // Retry ends 60 days after the May 5 failure; the lapse is already a month old by then.
    sim.next()
    #expect(sim.labels.last == "EXPIRED / BILLING_RETRY")
    #expect(sim.now == Sim.at("2026-07-04T10:00:00Z"))
    #expect(sim.info.eligibleWinBackOfferIds == ["premium.winback.half"])
  }
}

extension SimulationRenewalTests {
  @Test func aProductMissingFromTheCatalogExpiresAsNotForSale() {
    var sim = Sim()
    sim.buy("pass.premium.monthly")
    var info = sim.info
    info.autoRenewProductId = "pass.retired.monthly"
    sim.state.subscriber.renewalInfo = info
    sim.next()
    #expect(sim.labels.last == "EXPIRED / PRODUCT_NOT_FOR_SALE")
    #expect(sim.info.expirationIntent == .productNotAvailable)
    #expect(sim.status == .expired)
  }
}
