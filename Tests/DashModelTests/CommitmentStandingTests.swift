import Testing

@testable import DashModel
@testable import CoreValues

/// Where a commitment customer stands, as the plan panel and `show --json` say it.
@Suite struct CommitmentStandingTests {
  typealias F = LifecycleFixture

  static let ends = "2027-03-01 10:00"

  func monthly(period: Int = 4) -> String {
    F.transaction(#""billingPlanType": "MONTHLY", "commitmentInfo": {"billingPeriodNumber": \#(period), "totalBillingPeriods": 12, "commitmentPrice": 119880, "commitmentExpiresDate": \#(F.ms(Self.ends))}"#,
                  productId: "pro.annual", purchase: "2026-06-01 10:00", expires: "2026-07-01 10:00")
  }

  func renewal(commitmentAutoRenew: Int, plan: String = "MONTHLY", product: String = "pro.annual", price: Int = 9990) -> String {
    F.renewal(#""renewalBillingPlanType": "MONTHLY", "commitmentInfo": {"commitmentAutoRenewStatus": \#(commitmentAutoRenew), "commitmentAutoRenewProductId": "\#(product)", "commitmentRenewalBillingPlanType": "\#(plan)", "commitmentRenewalDate": \#(F.ms(Self.ends)), "commitmentRenewalPrice": \#(price)}"#,
              autoRenewProductId: "pro.annual")
  }

  func text(_ r: LifecycleReport) -> String? {
    r.commitment?.text(currentProductId: r.product?.productID) { $0 }
  }

  @Test func paymentFourOfTwelveThenRenewsMonthly() throws {
    let r = try F.report(F.subscriber(transaction: monthly(), renewal: renewal(commitmentAutoRenew: 1)), at: "2026-06-15 10:00")
    #expect(text(r) == "payment 4 of 12 · commitment ends 2027-03-01 · then renews monthly at 9.99 USD")
  }

  @Test func cancelledInsideTheCommitmentStillOwesTheRestAndEnds() throws {
    let r = try F.report(F.subscriber(transaction: monthly(), renewal: renewal(commitmentAutoRenew: 0)), at: "2026-06-15 10:00")
    #expect(r.commitment?.then == .ends)
    #expect(text(r)?.hasSuffix("then ends (cancelled; the remaining payments are still due)") == true)
  }

  @Test func renewingIntoAnotherProductAndPlanNamesBoth() throws {
    let r = try F.report(F.subscriber(transaction: monthly(period: 12), renewal: renewal(commitmentAutoRenew: 1, plan: "BILLED_UPFRONT", product: "pro.monthly", price: 99990)), at: "2026-06-15 10:00")
    #expect(text(r)?.hasPrefix("payment 12 of 12") == true)
    #expect(text(r)?.hasSuffix("then renews into pro.monthly billed up front at 99.99 USD") == true)
  }

  @Test func noCommitmentNoStanding() throws {
    #expect(try F.report(F.subscriber(), at: "2026-04-15 10:00").commitment == nil)
    let upfront = F.transaction(#""billingPlanType": "BILLED_UPFRONT""#)
    #expect(try F.report(F.subscriber(transaction: upfront), at: "2026-04-15 10:00").commitment == nil)
  }

  @Test func showJSONCarriesTheCommitment() throws {
    let r = try F.report(F.subscriber(transaction: monthly(), renewal: renewal(commitmentAutoRenew: 1)), at: "2026-06-15 10:00")
    guard case .object(let o) = r.json, case .object(let c)? = o["commitment"] else {
      Issue.record("no commitment object in show --json"); return
    }
    #expect(c.entries.map(\.key) == [
      "billingPlanType", "billingPeriodNumber", "totalBillingPeriods", "commitmentExpiresDate", "commitmentExpiresDateISO",
      "commitmentPrice", "currency", "then", "commitmentRenewalBillingPlanType", "commitmentAutoRenewProductId",
      "commitmentRenewalPrice", "commitmentRenewalDate",
    ])
    #expect(c["billingPeriodNumber"] == .int(4))
    #expect(c["commitmentExpiresDate"] == .double(F.at(Self.ends).ms))
    #expect(c["then"] == .string("renews"))
    #expect(c["commitmentRenewalPrice"] == .int(9990))
    guard case .object(let plain) = try F.report(F.subscriber(), at: "2026-04-15 10:00").json else { return }
    #expect(plain["commitment"] == nil)
  }
}
