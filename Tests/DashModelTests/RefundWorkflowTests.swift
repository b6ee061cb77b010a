import Testing

@testable import DashModel

/// The refund workflow (issue 10 item 11): CONSUMPTION_REQUEST → REFUND or REFUND_DECLINED,
/// REFUND_REVERSED, and prorated refunds.
@Suite struct RefundWorkflowTests {
  func paid(_ product: String = "pass.premium.monthly") -> Sim {
    var sim = Sim(start: "2026-06-01T00:00:00Z")
    sim.buy(product)
    sim.advance(by: .days(3))
    return sim
  }

  @Test func aRequestCarriesItsReasonAndA12HourDeadline() {
    var sim = paid()
    sim.run(.requestRefund(.legal))
    let note = sim.log.last!
    #expect(note.label == "CONSUMPTION_REQUEST")
    #expect(note.json.objectValue?["consumptionRequestReason"] == .string("LEGAL"))
    let request = sim.settings.refundRequest
    #expect(request?.reason == .legal)
    #expect(request?.consumptionDeadline == sim.now + .hours(12))
    #expect(sim.status == .active)
    #expect(sim.info.autoRenewStatus == .off)
  }

  @Test func declineKeepsAccessAndClearsTheRequest() {
    var sim = paid()
    sim.run(.requestRefund(.unintendedPurchase))
    sim.run(.declineRefund)
    #expect(sim.labels.last == "REFUND_DECLINED")
    #expect(sim.settings.refundRequest == nil)
    #expect(sim.status == .active)
    #expect(sim.refusal(.declineRefund) == .simulator(.noRefundRequested))
  }

  @Test func approvingAFulfillmentIssueIsRevocationReasonOne() {
    var sim = paid()
    sim.run(.requestRefund(.fulfillmentIssue))
    sim.run(.refund)
    #expect(sim.labels.last == "REFUND")
    #expect(sim.latest.revocationReason == .issueInApp)
    #expect(sim.latest.revocationType == .refundFull)
    #expect(sim.settings.refundRequest == nil)
  }

  @Test func reversalRestoresAccessUntilTheSameExpiry() {
    var sim = paid()
    let expires = sim.latest.expiresDate
    sim.run(.refund)
    #expect(sim.status == .revoked)
    sim.run(.reverseRefund)
    #expect(sim.labels.last == "REFUND_REVERSED")
    #expect(sim.status == .active)
    #expect(sim.latest.revocationDate == nil && sim.latest.revocationType == nil)
    #expect(sim.latest.expiresDate == expires)
    #expect(sim.refusal(.reverseRefund) == .simulator(.noRefundToReverse))
  }

  @Test func familyRevokeCannotBeReversedAsARefund() {
    var sim = Sim(start: "2026-06-01T00:00:00Z")
    sim.buy("pass.premium.monthly", family: true)
    sim.commit(Simulator.revokeFamilySharing(sim.state, at: sim.now))
    #expect(sim.refusal(.reverseRefund) == .simulator(.noRefundToReverse))
  }

  @Test func proratedShareIsTheUnusedTimeInMilliunitsAtItsBoundaries() {
    var t = TransactionPayload()
    t.purchaseDate = Sim.at("2026-01-01T00:00:00Z")
    t.expiresDate = Sim.at("2027-01-01T00:00:00Z")
    #expect(SimContext.proratedPercentage(of: t, at: t.purchaseDate!) == 100_000)
    #expect(SimContext.proratedPercentage(of: t, at: t.purchaseDate! + .ms(1)) == 99_999)
    #expect(SimContext.proratedPercentage(of: t, at: t.expiresDate! - .ms(1)) == 0)
    #expect(SimContext.proratedPercentage(of: t, at: Sim.at("2026-10-01T00:00:00Z")) == 25_205)
    #expect(SimContext.proratedPercentage(of: t, at: t.expiresDate!) == 0)
  }

  @Test func proratedRefundWritesTypeAndPercentage() {
    var sim = paid("pass.premium.annual")
    sim.run(.refundProrated)
    #expect(sim.latest.revocationType == .refundProrated)
    #expect((sim.latest.revocationPercentage ?? 0) > 99_000)
    #expect(sim.status == .revoked)
  }
}
