import DashModel
import CoreValues
import Foundation
import Testing
@testable import LocalAppStoreAPI
import SubscriberStorage

/// Send Consumption Information, as a backend answers a CONSUMPTION_REQUEST: 202 with no body,
/// the answer kept in the subscriber's pending refund request for the dashboard to show, and a
/// body Apple would refuse refused with Apple's code and nothing written.
@Suite struct ConsumptionAPITests {
  static let path = "/sandbox/inApps/v2/transactions/consumption/"

  /// The fixture's subscriber asks for a refund at its file's clock (what `C` does on the dashboard).
  static func withRefundRequested() throws -> (ServeFixture, transactionId: String) {
    let s = try ServeFixture()
    let saved = try StateFile.update(path: s.path, refusing: ActionError.self) { (current) throws(ActionError) -> Change in
      try Simulator.apply(.requestRefund(.unsatisfiedWithPurchase), to: current, at: try Simulator.clock(current)).get()
    }
    let request = try #require(try Simulator.settings(saved.state).refundRequest)
    return (s, try #require(request.transactionId))
  }

  static func send(_ s: ServeFixture, _ transactionId: String, _ body: String) async -> LocalAppStoreAPI.Response {
    await s.api.respond(.init(method: "PUT", path: path + transactionId, authorization: s.token(), body: Array(body.utf8)))
  }

  @Test func theAnswerIsAcceptedAndKeptInThePendingRequest() async throws {
    let (s, transactionId) = try Self.withRefundRequested()
    defer { s.remove() }
    let r = await Self.send(s, transactionId, #"{"customerConsented": true, "deliveryStatus": "DELIVERED", "sampleContentProvided": false, "consumptionPercentage": 25000, "refundPreference": "DECLINE"}"#)
    #expect(r.status == 202 && r.body.isEmpty)
    #expect(r.log.contains("within the 12 hours"))
    let state = try StateFile.load(path: s.path)
    let request = try #require(try Simulator.settings(state).refundRequest)
    let kept = try #require(request.consumption)
    #expect(kept.receivedDate == (try Simulator.clock(state)))
    #expect(kept.deliveryStatus == "DELIVERED" && kept.consumptionPercentage == 25_000 && kept.refundPreference == "DECLINE")
    #expect(kept.sampleContentProvided == false && kept.customerConsented)
  }

  @Test func withoutAPendingRequestItIsAcceptedAndNothingIsWritten() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let before = try Data(contentsOf: URL(fileURLWithPath: s.path))
    let r = await Self.send(s, ServeFixture.id, #"{"customerConsented": true, "deliveryStatus": "UNDELIVERED_OTHER", "sampleContentProvided": true}"#)
    #expect(r.status == 202 && r.log.contains("nothing recorded"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: s.path)) == before)
  }

  @Test(arguments: [
    (#"not json"#, 4_000_000),
    (#"{"deliveryStatus": "DELIVERED", "sampleContentProvided": false}"#, 4_000_035),
    (#"{"customerConsented": false, "deliveryStatus": "DELIVERED", "sampleContentProvided": false}"#, 4_000_035),
    (#"{"customerConsented": "true", "deliveryStatus": "DELIVERED", "sampleContentProvided": false}"#, 4_000_035),
    (#"{"customerConsented": true, "sampleContentProvided": false}"#, 4_000_036),
    (#"{"customerConsented": true, "deliveryStatus": "LOST", "sampleContentProvided": false}"#, 4_000_036),
    (#"{"customerConsented": true, "deliveryStatus": "DELIVERED"}"#, 4_000_041),
    (#"{"customerConsented": true, "deliveryStatus": "DELIVERED", "sampleContentProvided": 0}"#, 4_000_041),
    (#"{"customerConsented": true, "deliveryStatus": "DELIVERED", "sampleContentProvided": false, "consumptionPercentage": 100001}"#, 4_000_000),
    (#"{"customerConsented": true, "deliveryStatus": "DELIVERED", "sampleContentProvided": false, "consumptionPercentage": -1}"#, 4_000_000),
    (#"{"customerConsented": true, "deliveryStatus": "DELIVERED", "sampleContentProvided": false, "consumptionPercentage": 2.5}"#, 4_000_000),
    (#"{"customerConsented": true, "deliveryStatus": "UNDELIVERED_QUALITY_ISSUE", "sampleContentProvided": false, "consumptionPercentage": 1000}"#, 4_000_000),
    (#"{"customerConsented": true, "deliveryStatus": "DELIVERED", "sampleContentProvided": false, "refundPreference": "MAYBE"}"#, 4_000_000),
    (#"{"customerConsented": true, "deliveryStatus": "DELIVERED", "sampleContentProvided": false, "consumptionPercentage": 0, "refundPreference": "GRANT_PRORATED"}"#, 4_000_000),
  ])
  func aBodyAppleWouldRefuseIsRefusedWithItsCode(body: String, code: Int) async throws {
    let (s, transactionId) = try Self.withRefundRequested()
    defer { s.remove() }
    let before = try Data(contentsOf: URL(fileURLWithPath: s.path))
    let r = await Self.send(s, transactionId, body)
    #expect(r.status == 400 && ServeFixture.object(r)["errorCode"] as? Int == code, "\(body)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: s.path)) == before)
  }

  @Test func anUnknownTransactionIsNotFound() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let r = await Self.send(s, "999999", #"{"customerConsented": true, "deliveryStatus": "DELIVERED", "sampleContentProvided": false}"#)
    #expect(r.status == 404 && ServeFixture.object(r)["errorCode"] as? Int == 4_040_010)
  }
}
