import Foundation
import Testing

@testable import DashModel
@testable import CoreValues

/// A price increase for a commitment customer (issue 21 §1): Apple says price changes of a monthly
/// subscription with a 12-month commitment follow the rules of standard annual subscriptions, so
/// the commitment's monthly payments keep their price and the increase (consent, new price)
/// applies when the commitment renews (docs/simulation.md, rule 15).
@Suite struct SimulationCommitmentPriceIncreaseTests {
  let end = Sim.at("2027-03-01T00:00:00Z")

  /// Premium Annual's monthly plan (9.49 GBP × 12) bought on 1 March 2026, now in payment 4.
  func inMonthFour() -> Sim {
    var sim = Sim(start: "2026-03-01T00:00:00Z", catalog: { $0 = SimulationCommitmentTests.commitmentCatalog() })
    sim.commit(Simulator.buy(PurchaseRequest(productId: "pass.premium.annual", billingPlan: .monthly), state: sim.state, at: sim.now))
    for _ in 2...4 { sim.next() }
    return sim
  }

  @Test func anIncreaseWaitsForTheCommitmentsEndAndTheMonthlyPaymentsKeepTheirPrice() {
    var sim = inMonthFour()
    sim.run(.requestPriceIncrease)
    #expect(sim.labels.last == "PRICE_INCREASE / PENDING")
    let said = sim.log.last?.summary ?? ""
    #expect(said.contains("rises from 9.49"), "\(said)")
    #expect(said.contains("to 10.49"), "\(said)")
    #expect(said.contains("a month when the commitment renews on 2027-03-01"), "\(said)")
    #expect(said.contains("payments 5–12 of 12 stay at 9.49"), "\(said)")
    #expect(sim.info.priceIncreaseStatus == .customerHasNotResponded)
    #expect(sim.info.renewalPrice == 9490)
    #expect(sim.info.commitmentInfo?.commitmentRenewalPrice == 125_880)
    // No consent yet, and still every monthly payment is charged at the commitment's price.
    for n in 5...12 {
      sim.next()
      #expect(sim.labels.last == "DID_RENEW")
      #expect(sim.latest.commitmentInfo?.billingPeriodNumber == n)
      #expect(sim.latest.price == 9490)
      #expect(sim.info.priceIncreaseStatus == .customerHasNotResponded)
    }
    // The commitment's renewal is where consent counts: without it, it expires at the end.
    sim.advance(to: end - .ms(1))
    #expect(sim.status == .active)
    sim.advance(to: end)
    #expect(sim.labels.last == "EXPIRED / PRICE_INCREASE")
  }

  @Test func aConsentedIncreaseStartsWithTheNextCommitment() {
    var sim = inMonthFour()
    sim.run(.requestPriceIncrease)
    sim.run(.consentPriceIncrease)
    #expect(sim.info.priceIncreaseStatus == .customerConsented)
    sim.advance(to: end - .ms(1))
    #expect(sim.latest.commitmentInfo?.billingPeriodNumber == 12)
    #expect(sim.latest.price == 9490)
    sim.advance(to: end)
    #expect(sim.labels.last == "DID_RENEW")
    #expect(sim.latest.commitmentInfo?.billingPeriodNumber == 1)
    #expect(sim.latest.price == 10490)
    #expect(sim.latest.commitmentInfo?.commitmentPrice == 125_880)
    #expect(sim.info.priceIncreaseStatus == nil)
    // The raised price is the commitment's own from now on.
    sim.next()
    #expect(sim.latest.commitmentInfo?.billingPeriodNumber == 2)
    #expect(sim.latest.price == 10490)
  }

  @Test func decliningInsideTheCommitmentCancelsOnlyItsRenewal() {
    var sim = inMonthFour()
    sim.run(.requestPriceIncrease)
    sim.run(.declinePriceIncrease)
    #expect(sim.labels.last == "DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED")
    #expect(sim.info.commitmentInfo?.commitmentAutoRenewStatus == .off)
    #expect(sim.info.autoRenewStatus == .on)
    for n in 5...12 {
      sim.next()
      #expect(sim.latest.commitmentInfo?.billingPeriodNumber == n)
    }
    sim.advance(to: end)
    #expect(sim.labels.last == "EXPIRED / PRICE_INCREASE")
  }

  @Test func aCommitmentThatEndsWithoutRenewingIsRefusedWithItsReason() {
    var sim = inMonthFour()
    sim.plan(.setAutoRenew(false))
    let refusal = sim.refusal(.requestPriceIncrease)
    let why = refusal?.message ?? "not refused"
    #expect(why.contains("The 12-month commitment ends on 2027-03-01"), "\(why)")
    #expect(why.contains("without renewing, so there is no renewal to raise the price of"), "\(why)")
    #expect(why.contains("payments (5–12 of 12) keep the commitment's price"), "\(why)")
  }
}
