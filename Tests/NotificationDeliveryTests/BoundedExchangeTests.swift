import DashModel
import CoreValues
import Foundation
import NotificationDelivery
import OutboundHTTP
import Testing

/// One deadline covers a whole outbound exchange: connecting, the answer's head and its whole
/// body. The server here answers 200 at once and then sends one byte every 50 ms for a minute,
/// which AsyncHTTPClient's own deadline (it stops at the head) never stopped. An exchange that
/// ends with the limit's words long before the body could have ended was stopped by the limit:
/// no test here times itself against a budget a loaded machine might miss.
@Suite("Outbound exchanges end within their limit, the body included; a URL no request can go to is a failed attempt")
struct BoundedExchangeTests {
  /// The trickle: 1,200 bytes, one every 50 ms, so the whole answer would take a minute.
  static let trickleBytes = 1_200
  static let trickle: Duration = .milliseconds(50) * 1_200

  @Test("A notification answered 200 whose body trickles past --timeout is TIMED_OUT, at the timeout, not when the body ends")
  func senderStopsAtTheLimit() async throws {
    let server = TricklingServer(bytes: Self.trickleBytes)
    let (outcome, took) = try await server.serve { base in
      let sender = HTTPNotificationSender()
      let started = ContinuousClock.now
      let outcome = await sender.send(Array(#"{"signedPayload":"x"}"#.utf8), to: base + "/apple/notifications", timeout: 0.5)
      let took = ContinuousClock.now - started
      await sender.shutdown()
      return (outcome, took)
    }
    #expect(outcome.result == .timedOut && outcome.httpStatus == nil, "\(outcome)")
    #expect(outcome.detail == "no whole answer within 500 ms")
    #expect(took < Self.trickle, "the send took \(took): as long as the body, not the limit")
    #expect(server.requests == 1)
  }

  @Test("A body that ends within the limit is a delivered answer: the limit is for the whole exchange, not stricter")
  func aQuickBodyPasses() async throws {
    let server = TricklingServer(bytes: 3, interval: .milliseconds(10))
    let outcome = try await server.serve { base in
      let sender = HTTPNotificationSender()
      let outcome = await sender.send(Array(#"{"signedPayload":"x"}"#.utf8), to: base + "/apple/notifications", timeout: 10)
      await sender.shutdown()
      return outcome
    }
    #expect(outcome == SendOutcome(result: .success, httpStatus: 200))
  }

  @Test("deliver --timeout against a trickling backend records TIMED_OUT within the timeout, and the next notification is still sent")
  func deliverRecordsTheTimeout() async throws {
    let sim = try DeliveryFixture()
    defer { sim.remove() }
    let server = TricklingServer(bytes: Self.trickleBytes)
    let log = Lines()
    let totals = try await server.serve { base in
      try await sim.deliverAll(to: base + "/apple/notifications", { $0.schedule = .sandbox; $0.timeout = 0.5 }, log: log, whileRunning: { try sim.renew(2) })
    }
    #expect(totals.attempts == 2 && totals.delivered == 0 && totals.gaveUp == 2, "\(totals) \(log.all)")
    let attempts = try #require(try sim.book).recent.flatMap(\.sendAttempts)
    #expect(attempts.map(\.result) == [.timedOut, .timedOut])
    #expect(attempts.allSatisfy { ($0.milliseconds ?? .max) < 60_000 }, "\(attempts.map(\.milliseconds)): as long as the body, not the limit")
    #expect(log.all.filter { $0.contains("TIMED_OUT: no whole answer within 500 ms") }.count == 2, "\(log.all)")
  }

  @Test("A stored URL whose port no socket has (99999) is a failed attempt saying why; nothing is sent and nothing traps")
  func aBadStoredURLCannotCrashTheSender() async {
    let sender = HTTPNotificationSender()
    for (url, why) in [("http://127.0.0.1:99999/apple/notifications", "the port 99999 is outside 1-65535"),
                       ("http://127.0.0.1:0/", "the port 0 is outside 1-65535"),
                       ("http://[::1]:65536/", "the port 65536 is outside 1-65535")] {
      let outcome = await sender.send(Array("{}".utf8), to: url, timeout: 2)
      #expect(outcome == SendOutcome(result: .other, detail: "bad URL: " + why), "\(url)")
    }
    await sender.shutdown()
  }

  @Test("The realtime URL kept beside the files with port 99999: the cancel page shows the default message and says why")
  func aBadStoredRealtimeURLFallsBack() async throws {
    let scene = try RetentionScene(url: "http://127.0.0.1:99999/retention")
    defer { scene.fixture.remove() }
    let outcome = try await scene.ask()
    #expect(outcome.offer?.source == .defaultMessage)
    #expect(outcome.problem == "realtime URL http://127.0.0.1:99999/retention: the port 99999 is outside 1-65535")
  }

  @Test("A realtime answer whose body trickles past the time limit shows the default message at the limit")
  func realtimeTrickle() async throws {
    let server = TricklingServer(bytes: Self.trickleBytes)
    let (outcome, took) = try await server.serve { base in
      let scene = try RetentionScene(url: base + "/retention")
      defer { scene.fixture.remove() }
      let started = ContinuousClock.now
      let outcome = try await scene.ask(timeLimitMs: 300)
      return (outcome, ContinuousClock.now - started)
    }
    #expect(outcome.offer?.source == .defaultMessage && outcome.problem == "no answer within 300 ms", "\(outcome)")
    #expect(took < Self.trickle, "the ask took \(took): as long as the body, not the limit")
  }
}
