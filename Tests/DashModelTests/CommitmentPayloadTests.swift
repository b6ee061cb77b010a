import Testing
@testable import DashModel
@testable import CoreValues

/// billingPlanType / commitmentInfo as Apple's app-store-server-library 3.1.2 names them.
@Suite struct CommitmentPayloadTests {
  func transaction(_ text: String) throws -> TransactionPayload {
    try TransactionPayload(ObjectReader(JSONParser.parse(Array(text.utf8)), at: .root))
  }
  func renewal(_ text: String) throws -> RenewalInfoPayload {
    try RenewalInfoPayload(ObjectReader(JSONParser.parse(Array(text.utf8)), at: .root))
  }

  @Test func aMonthlyTransactionReadsItsPlanAndCommitment() throws {
    let t = try transaction("""
      {"transactionId":"4","billingPlanType":"MONTHLY","commitmentInfo":{"billingPeriodNumber":4,
       "totalBillingPeriods":12,"commitmentExpiresDate":1803945600000,"commitmentPrice":119880,"futureField":"kept"}}
      """)
    #expect(t.billingPlanType == .monthly)
    #expect(t.commitmentInfo?.billingPeriodNumber == 4)
    #expect(t.commitmentInfo?.totalBillingPeriods == 12)
    #expect(t.commitmentInfo?.commitmentExpiresDate == Instant(ms: 1803945600000))
    #expect(t.commitmentInfo?.commitmentPrice == 119880)
    let back = JSONWriter.string(t.json, pretty: false)
    #expect(back.contains("\"futureField\":\"kept\""))
    #expect(back.contains("\"billingPlanType\":\"MONTHLY\""))
    #expect(try transaction(back) == t)
  }

  @Test func anUnknownPlanTypeLoadsAndIsNamedUnknown() throws {
    let t = try transaction(#"{"billingPlanType":"QUARTERLY"}"#)
    #expect(t.billingPlanType?.isKnown == false)
    #expect(t.billingPlanType?.description == "unknown (QUARTERLY)")
    #expect(JSONWriter.string(t.json, pretty: false) == #"{"billingPlanType":"QUARTERLY"}"#)
  }

  @Test func billingPeriodNumberIsBoundedLikeApplesDecoder() throws {
    for ok in [1, 12] {
      #expect(try transaction(#"{"commitmentInfo":{"billingPeriodNumber":\#(ok)}}"#).commitmentInfo?.billingPeriodNumber == ok)
    }
    for bad in [0, 13, -1] {
      #expect(throws: DecodeError.self) { try transaction(#"{"commitmentInfo":{"billingPeriodNumber":\#(bad)}}"#) }
    }
    #expect(throws: DecodeError.self) { try transaction(#"{"commitmentInfo":{"totalBillingPeriods":0}}"#) }
    #expect(throws: DecodeError.self) { try transaction(#"{"commitmentInfo":"monthly"}"#) }
  }

  @Test func theErrorSaysWhere() throws {
    do {
      _ = try transaction(#"{"commitmentInfo":{"billingPeriodNumber":13}}"#)
      Issue.record("accepted period 13")
    } catch let error as DecodeError {
      #expect(error.path == JSONPath.root.appending("commitmentInfo").appending("billingPeriodNumber"))
    }
  }

  @Test func renewalInfoReadsTheCommitmentsOwnAutoRenew() throws {
    let r = try renewal("""
      {"autoRenewStatus":1,"renewalBillingPlanType":"MONTHLY","commitmentInfo":{"commitmentAutoRenewStatus":0,
       "commitmentAutoRenewProductId":"yearly","commitmentRenewalBillingPlanType":"BILLED_UPFRONT",
       "commitmentRenewalDate":1803945600000,"commitmentRenewalPrice":99990}}
      """)
    #expect(r.autoRenewOn)
    #expect(r.renewalBillingPlanType == .monthly)
    #expect(r.commitmentInfo?.commitmentAutoRenewStatus == .off)
    #expect(r.commitmentInfo?.commitmentAutoRenewProductId == "yearly")
    #expect(r.commitmentInfo?.commitmentRenewalBillingPlanType == .billedUpfront)
    #expect(r.commitmentInfo?.commitmentRenewalDate == Instant(ms: 1803945600000))
    #expect(r.commitmentInfo?.commitmentRenewalPrice == 99990)
    #expect(try renewal(JSONWriter.string(r.json, pretty: false)) == r)
  }

  @Test func payloadsWithoutThePlanWriteNothingNew() throws {
    let text = #"{"transactionId":"1","price":9990}"#
    #expect(JSONWriter.string(try transaction(text).json, pretty: false) == text)
    let rtext = #"{"autoRenewStatus":1}"#
    #expect(JSONWriter.string(try renewal(rtext).json, pretty: false) == rtext)
  }
}
