import Testing

@testable import DashModel
@testable import CoreValues

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
    // The amount said is what the customer gets back, in cents: no third decimal.
    let said = sim.log.last?.summary ?? ""
    #expect(said.contains("prorated refund of ") && said.range(of: #"refund of \d+\.\d\d USD"#, options: .regularExpression) != nil, "\(said)")
    #expect(sim.latest.revocationType == .refundProrated)
    #expect((sim.latest.revocationPercentage ?? 0) > 99_000)
    #expect(sim.status == .revoked)
  }

  // MARK: Send Consumption Information

  static let delivered = ConsumptionInformation(receivedDate: Instant(ms: 0), customerConsented: true, deliveryStatus: "DELIVERED",
                                                sampleContentProvided: false, consumptionPercentage: 40_000, refundPreference: "DECLINE")

  /// The developer's answer is kept in the pending request, dated at the file's clock, and judged
  /// against Apple's 12 hours to the millisecond: at the deadline is in time, 1 ms after is late.
  @Test(arguments: [(Span.hours(12), true), (Span.hours(12) + .ms(1), false), (Span.ms(0), true)])
  func consumptionInformationIsKeptAndJudgedAgainstTheTwelveHours(after wait: Span, inTime: Bool) throws {
    var sim = paid()
    sim.run(.requestRefund(.unsatisfiedWithPurchase))
    let request = try #require(sim.settings.refundRequest)
    let transactionId = try #require(request.transactionId)
    sim.advance(by: wait)
    let change = try Simulator.recordConsumption(Self.delivered, transactionId: transactionId, in: sim.state, at: sim.now).get()
    sim.commit(change)
    let kept = try #require(sim.settings.refundRequest?.consumption)
    #expect(kept.receivedDate == request.requestedDate + wait)
    #expect(kept.deliveryStatus == "DELIVERED" && kept.consumptionPercentage == 40_000 && kept.refundPreference == "DECLINE")
    #expect(request.isInTime(kept.receivedDate) == inTime)
    #expect(change.message.contains(inTime ? "within the 12 hours" : "after the 12 hours ended"))
    #expect(change.notifications.isEmpty, "Apple sends no notification for it")
    // Apple then decides as before; the decision clears the request and what was sent with it.
    sim.run(.declineRefund)
    #expect(sim.settings.refundRequest == nil)
  }

  @Test func consumptionInformationNeedsThePendingRequestOfThatTransaction() throws {
    var sim = paid()
    #expect(throws: ActionError.simulator(.noRefundRequested)) {
      try Simulator.recordConsumption(Self.delivered, transactionId: sim.latest.transactionId!, in: sim.state, at: sim.now).get()
    }
    sim.run(.requestRefund(.legal))
    #expect(throws: ActionError.other("the pending refund request is for transaction \(sim.latest.transactionId!), not 1")) {
      try Simulator.recordConsumption(Self.delivered, transactionId: "1", in: sim.state, at: sim.now).get()
    }
  }

  /// What the file says about it survives a round trip, fields SubDash does not know included.
  @Test func consumptionInformationKeepsUnknownFields() throws {
    let text = #"{"requestedDate": 1780000000000, "reason": "LEGAL", "transactionId": "7", "consumptionInformation": {"receivedDate": 1780000001000, "customerConsented": true, "deliveryStatus": "UNDELIVERED_OTHER", "sampleContentProvided": true, "futureField": [1, 2]}}"#
    guard case .object(let o) = try JSONParser.parse(Array(text.utf8)) else { Issue.record("not an object"); return }
    let request = try RefundRequest(ObjectReader(o, at: JSONPath.root))
    #expect(request.consumption?.deliveryStatus == "UNDELIVERED_OTHER" && request.consumption?.sampleContentProvided == true)
    #expect(request.json.objectValue?["consumptionInformation"]?.objectValue?["futureField"] == .array([.number("1"), .number("2")]))
  }
}
