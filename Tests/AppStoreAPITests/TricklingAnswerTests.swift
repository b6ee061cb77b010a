import AppStoreAPI
import AppStoreSigning
import DashModel
import CoreValues
import Foundation
import LocalAppStoreAPI
import NotificationDelivery
import Testing

/// One deadline covers a whole outbound exchange, the body included: the App Store Server API
/// client, and `serve`'s Retention Messaging performance test (what `serve` sends goes through
/// NotificationDelivery's sender). The server answers 200 at once and then sends one byte every
/// 50 ms for a minute; AsyncHTTPClient's own deadline stops at the head and its read timeout is
/// per byte, so neither ever stopped it. An exchange that ends with the limit's words long before
/// the body could have ended was stopped by the limit; no budget a loaded machine might miss.
@Suite("A body that trickles past the limit: fetch and the performance test stop at the limit")
struct TricklingAnswerTests {
  /// The trickle: 1,200 bytes, one every 50 ms, so the whole answer would take a minute.
  static let trickleBytes = 1_200
  static let trickleSeconds: TimeInterval = 60

  @Test("fetch with a 0.5 s request timeout gives up at the timeout when the answer's body trickles, saying it timed out")
  func fetchStopsAtTheTimeout() async throws {
    let team = Team()
    let server = TricklingServer(bytes: Self.trickleBytes)
    let started = Date()
    let error = try await server.serve { url in
      try await withClient(team, url, clock: RecordedSleeps().clock(), retry: RetryPolicy(maxAttempts: 1), requestTimeout: 0.5) { client in
        await fetchError { _ = try await client.transactionInfo(Customer.active, environment: .sandbox) }
      }
    }
    let took = Date().timeIntervalSince(started)
    #expect(error?.description == "Get Transaction Info: gave up after 1 attempts: timed out after 0.5 s")
    #expect(took < Self.trickleSeconds, "the fetch took \(took) s: as long as the body, not the limit")
  }

  @Test("a --base-url whose port no socket has (99999) is refused before anything is sent, and the client does not trap")
  func aBadBaseURLIsAnErrorNotACrash() async throws {
    let error = try await withClient(Team(), "http://127.0.0.1:99999", clock: RecordedSleeps().clock()) { client in
      await fetchError { _ = try await client.transactionInfo(Customer.active, environment: .sandbox) }
    }
    #expect(error?.description == "Get Transaction Info: cannot call http://127.0.0.1:99999/sandbox/inApps/v1/transactions/\(Customer.active): "
      + "the port 99999 is outside 1-65535")
  }

  @Test("a performance test against a realtime URL that trickles its body ends FAIL (every request TIMED_OUT), and the next test is accepted")
  func performanceTestEnds() async throws {
    let team = Team()
    let scene = try PerformanceScene(team, limitMs: 200)
    let server = TricklingServer(bytes: Self.trickleBytes)
    let (ended, second) = try await server.serve { base in
      #expect(await scene.call("PUT", "realtime/url", #"{"realtimeURL": "\#(base)/retention"}"#).status == 200)
      // A deadline on what can be seen (the test's end), far past ten limits of 200 ms.
      let first = try await scene.runToEnd(within: .seconds(Self.trickleSeconds))
      // Not 4000213 "A performance test is already running": the first one ended.
      let again = await scene.call("POST", "performanceTest", #"{"originalTransactionId": "\#(Customer.active)"}"#)
      return (first, again)
    }
    await scene.sender.shutdown()
    let first = PerformanceScene.object(ended)
    #expect(first["result"] as? String == "FAIL" && first["successRate"] as? Int == 0 && first["numPending"] as? Int == 0, "\(first)")
    #expect(first["failures"] as? [String: Int] == ["TIMED_OUT": 10], "\(first)")
    #expect((first["config"] as? [String: Any])?["responseTimeThreshold"] as? Int == 200)
    #expect(second.status == 200, "\(String(decoding: second.body, as: UTF8.self))")
  }

  @Test("a realtime server whose whole answer comes within the threshold passes")
  func performanceTestPasses() async throws {
    let team = Team()
    // The threshold is a parameter: a generous one, so a loaded machine's slow answer still passes.
    let scene = try PerformanceScene(team, limitMs: 15_000)
    let server = TricklingServer(bytes: 2, interval: .milliseconds(5))
    let ended = try await server.serve { base in
      #expect(await scene.call("PUT", "realtime/url", #"{"realtimeURL": "\#(base)/retention"}"#).status == 200)
      return try await scene.runToEnd(within: .seconds(180))
    }
    await scene.sender.shutdown()
    let result = PerformanceScene.object(ended)
    #expect(result["result"] as? String == "PASS" && result["successRate"] as? Int == 100, "\(result)")
    #expect(server.requests == 10)
  }
}

/// `serve`'s API in-process with a real sender, for the Retention Messaging performance test.
struct PerformanceScene {
  let server: LocalServer
  let api: LocalAppStoreAPI
  let sender = HTTPNotificationSender()
  let token: BearerToken

  init(_ team: Team, limitMs: Int) throws {
    server = try LocalServer(team)
    token = BearerToken(credentials: team.credentials)
    api = LocalAppStoreAPI(directory: server.directory, settings: .init(check: team.check, performanceTestLimitMs: limitMs),
                           authority: try LocalCertificateAuthority.create(), sender: sender)
  }

  func call(_ method: String, _ path: String, _ body: String = "") async -> LocalAppStoreAPI.Response {
    await api.respond(.init(method: method, path: "/sandbox/inApps/v1/messaging/" + path, authorization: "Bearer " + ((try? token.token(now: Date())) ?? ""),
                            body: Array(body.utf8)))
  }

  static func object(_ r: LocalAppStoreAPI.Response) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any]) ?? [:]
  }

  /// Starts a test and polls its result until it is no longer PENDING, or `within` has passed;
  /// the last result read.
  func runToEnd(within: Duration) async throws -> LocalAppStoreAPI.Response {
    let started = Self.object(await call("POST", "performanceTest", #"{"originalTransactionId": "\#(Customer.active)"}"#))
    let requestId = try #require(started["requestId"] as? String, "\(started)")
    let deadline = ContinuousClock.now + within
    var last = await call("GET", "performanceTest/result/\(requestId)")
    while Self.object(last)["result"] as? String == "PENDING", ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(50))
      last = await call("GET", "performanceTest/result/\(requestId)")
    }
    return last
  }
}
