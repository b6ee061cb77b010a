import DashModel
import CoreValues
import Foundation
import Testing
@testable import LocalAppStoreAPI

/// `serve --fault`: the next requests meet the failures given, in order, one each, before
/// anything else is checked; then answers are normal again.
@Suite struct FaultTests {
  @Test func faultsReadAsTheOptionWritesThem() {
    #expect(LocalAppStoreAPI.Fault("500:5000001") == .status(500, code: 5_000_001))
    #expect(LocalAppStoreAPI.Fault("503") == .status(503, code: nil))
    #expect(LocalAppStoreAPI.Fault("429:4290000") == .status(429, code: 4_290_000))
    #expect(LocalAppStoreAPI.Fault("delay:8") == .delay(seconds: 8))
    #expect(LocalAppStoreAPI.Fault("delay:0.25") == .delay(seconds: 0.25))
    for refused in ["", "200", "600", "500:4040010", "500:", ":500", "500:5000001:1", "delay", "delay:0", "delay:-1", "delay:601",
                    "delay:nan", "delay:inf", "+500", "５００", "500:+5000001", "timeout:8"] {
      #expect(LocalAppStoreAPI.Fault(refused) == nil, "\(refused)")
    }
  }

  @Test func theNextRequestsMeetTheFaultsInOrderThenTheAnswer() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let path = "/sandbox/inApps/v1/transactions/\(ServeFixture.id)"
    s.api.inject([.status(500, code: 5_000_001), .status(503, code: nil)])
    let first = await s.get(path)
    #expect(first.status == 500)
    #expect(ServeFixture.object(first)["errorCode"] as? Int == 5_000_001)
    #expect(first.log == "500 GET \(path): --fault")
    // Met before the token is checked, as a gateway's failure is.
    let second = await s.get(path, authorization: "Bearer not-a-token")
    #expect(second.status == 503 && second.body.isEmpty)
    #expect(await s.get(path).status == 200)
  }

  @Test func aDelayAnswersNormallyAfterIt() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    s.api.inject([.delay(seconds: 0.3)])
    let started = ContinuousClock.now
    let r = await s.get("/sandbox/inApps/v1/transactions/\(ServeFixture.id)")
    #expect(r.status == 200)
    #expect(ContinuousClock.now - started >= .milliseconds(300))
  }
}
