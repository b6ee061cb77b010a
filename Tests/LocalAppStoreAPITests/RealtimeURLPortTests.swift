import DashModel
import CoreValues
import Foundation
import NotificationDelivery
import Testing
@testable import LocalAppStoreAPI
import SubscriberStorage
import RetentionMessaging

/// A realtime URL with a port outside 1-65535 was accepted by Configure Realtime URL and then
/// killed `serve` at the first performance test (SwiftNIO traps on such a port), and every cancel
/// page after. It is refused where it comes in, with Apple's error; one kept from before is a
/// failed request with a reason, never a crash.
@Suite struct RealtimeURLPortTests {
  @Test("Configure Realtime URL refuses a port outside 1-65535 (and an empty or non-numeric one) with 400 4000215, and keeps nothing", arguments: [
    "http://127.0.0.1:99999/retention", "http://127.0.0.1:0/retention", "http://127.0.0.1:65536/retention",
    "http://127.0.0.1:/retention", "http://127.0.0.1:80a/retention", "http://[::1]:99999/retention",
  ])
  func refusedPort(url: String) async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let r = await RetentionMessagingAPITests.call(s, "PUT", "realtime/url", #"{"realtimeURL": "\#(url)"}"#)
    #expect(r.status == 400 && ServeFixture.object(r)["errorCode"] as? Int == 4_000_215, "\(url)")
    #expect(await RetentionMessagingAPITests.call(s, "GET", "realtime/url").status == 404)
    #expect(!FileManager.default.fileExists(atPath: s.directory + "/" + RetentionSetup.fileName))
  }

  @Test("The ports at the ends of the range, an IPv6 literal with a port, and Apple's 256-character limit")
  func boundaries() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    for url in ["http://127.0.0.1:1/r", "https://example.com:65535/r", "http://[::1]:8080/r"] {
      #expect(await RetentionMessagingAPITests.call(s, "PUT", "realtime/url", #"{"realtimeURL": "\#(url)"}"#).status == 200, "\(url)")
      #expect(ServeFixture.object(await RetentionMessagingAPITests.call(s, "GET", "realtime/url"))["realtimeURL"] as? String == url)
    }
    let at256 = "https://example.com/" + String(repeating: "r", count: 256 - 20)
    #expect(await RetentionMessagingAPITests.call(s, "PUT", "realtime/url", #"{"realtimeURL": "\#(at256)"}"#).status == 200)
    let over = await RetentionMessagingAPITests.call(s, "PUT", "realtime/url", #"{"realtimeURL": "\#(at256)r"}"#)
    #expect(over.status == 400 && ServeFixture.object(over)["errorCode"] as? Int == 4_000_215)
  }

  @Test("A realtime URL with port 99999 kept from before: the performance test ends FAIL, each request OTHER, and the server answers on")
  func keptBadURL() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    try RetentionSetup(realtimeURL: "http://127.0.0.1:99999/retention").save(besideStateFile: s.path)
    let sender = HTTPNotificationSender()
    let api = LocalAppStoreAPI(directory: s.directory, settings: .init(check: BearerCheck(publicKey: s.key.publicKey, keyID: "KEY1", issuerID: "issuer-1",
                                                                                           bundleID: s.bundleID)),
                               authority: ServeFixture.ca, sender: sender, wallClock: { s.now })
    func call(_ method: String, _ path: String, _ body: String = "") async -> LocalAppStoreAPI.Response {
      await api.respond(.init(method: method, path: "/sandbox/inApps/v1/messaging/" + path, authorization: s.token(), body: Array(body.utf8)))
    }
    let started = ServeFixture.object(await call("POST", "performanceTest", #"{"originalTransactionId": "\#(ServeFixture.id)"}"#))
    let requestId = try #require(started["requestId"] as? String, "\(started)")
    var result: [String: Any] = [:]
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
      result = ServeFixture.object(await call("GET", "performanceTest/result/\(requestId)"))
      if result["result"] as? String != "PENDING" { break }
      try await Task.sleep(for: .milliseconds(20))
    }
    await sender.shutdown()
    #expect(result["result"] as? String == "FAIL" && result["failures"] as? [String: Int] == ["OTHER": 10], "\(result)")
  }
}
