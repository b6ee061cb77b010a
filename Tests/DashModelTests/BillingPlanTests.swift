import Testing

@testable import DashModel
@testable import CoreValues

/// billingPlanType and commitmentInfo (monthly billing with a 12-month commitment) pass through
/// and are described for what they mean, read-only.
@Suite("Billing plan")
struct BillingPlanTests {
  typealias F = LifecycleFixture

  @Test func aMonthlyCommitmentIsDescribed() throws {
    let t = F.transaction(#""billingPlanType": "MONTHLY", "commitmentInfo": {"billingPeriodNumber": 3, "totalBillingPeriods": 12, "commitmentPrice": 119880, "commitmentExpiresDate": \#(F.ms("2027-01-01 00:00"))}"#)
    let r = F.renewal(#""renewalBillingPlanType": "MONTHLY""#)
    let state = try F.state(F.subscriber(transaction: t, renewal: r))
    #expect(BillingPlan.text(state.subscriber.latestTransaction, renewal: state.subscriber.renewalInfo)
      == "billed monthly · 12-payment commitment: payment 3 of 12, 119.88 USD in total, until 2027-01-01 00:00 UTC · next renewal billed monthly")
  }

  @Test func aPlainSubscriptionHasNoBillingPlanLineAndOddValuesAreNotEchoed() throws {
    let plain = try F.state(F.subscriber())
    #expect(BillingPlan.text(plain.subscriber.latestTransaction, renewal: plain.subscriber.renewalInfo) == nil)
    let odd = try F.state(F.subscriber(transaction: F.transaction(#""billingPlanType": "\u001b[2J", "commitmentInfo": {}"#)))
    #expect(BillingPlan.text(odd.subscriber.latestTransaction, renewal: nil) == "billing plan unknown · commitment")
    // A commitment field of the wrong type is refused with its place, like every modelled field.
    #expect(throws: StateFileError.self) {
      try F.state(F.subscriber(transaction: F.transaction(#""commitmentInfo": {"billingPeriodNumber": "x"}"#)))
    }
  }
}
