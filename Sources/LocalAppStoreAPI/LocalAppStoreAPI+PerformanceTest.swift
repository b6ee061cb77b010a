import DashModel
import Foundation
import NotificationDelivery
import CoreValues

/// Initiate Performance Test (`POST /inApps/v1/messaging/performanceTest`, `{originalTransactionId}`)
/// and Get Performance Test Results (`GET …/performanceTest/result/{requestId}`): the App Store
/// sends signed realtime requests (RealtimeRequest) for that customer to the configured realtime
/// URL and reports how it answered. Apple's test parameters are its own; SubDash's run, reported
/// in `config`, is 10 requests, one at a time, each given 1,000 ms (responseTimeThreshold,
/// `Settings.performanceTestLimitMs`), and passes when 90% succeed (successRateThreshold): these
/// numbers are SubDash's, not Apple's. A request succeeds only when its whole answer (status 200
/// and the body to its end) arrived within the threshold: the sender stops waiting there, so a
/// server that trickles its body fails the request and the run still ends.
extension LocalAppStoreAPI {
  static let performanceTotal = 10
  /// The default responseTimeThreshold (`Settings.performanceTestLimitMs`).
  public static let performanceThresholdMs = 1_000
  static let performanceSuccessPercent = 90

  func initiatePerformanceTest(_ body: [UInt8], _ env: AppStoreEnvironment) async throws -> Answer {
    guard case .object(let o)? = try? JSONParser.parse(body), let original = o["originalTransactionId"]?.stringValue else {
      throw APIFailure.invalidRequest(code: 4_000_211, message: "Invalid performance test request.")
    }
    let s = try directory.subscriber(owning: original, environment: env)
    guard let url = try await retention.read().realtimeURL else { throw Self.realtimeNotFound }
    let productId = s.state.subscriber.latestTransaction?.productId ?? ""
    let requestId = UUID().uuidString.lowercased()
    let started: Bool = lock.withLock {
      guard !performanceTests.values.contains(where: { $0.pending > 0 }) else { return false }
      performanceTests[requestId] = PerformanceRun(target: url)
      return true
    }
    guard started else { throw APIFailure.invalidRequest(code: 4_000_213, message: "A performance test is already running.") }
    let originalId = s.state.subscriber.originalTransactionId ?? original
    Task { await runPerformanceTest(requestId, url: url, originalTransactionId: originalId, productId: productId, env) }
    return Answer(object([("config", performanceConfig), ("requestId", .string(requestId))]))
  }

  func performanceTestResult(_ requestId: String) throws -> Answer {
    guard let run = lock.withLock({ performanceTests[requestId] }) else {
      throw APIFailure.invalidRequest(code: 4_040_018, message: "Performance test run not found.")
    }
    let done = run.times.count
    let succeeded = run.times.filter(\.ok).count
    let rate = done == 0 ? 0 : succeeded * 100 / done
    var fields: [(String, JSON)] = [("config", performanceConfig), ("target", .string(run.target)),
                                    ("result", .string(run.pending > 0 ? "PENDING" : rate >= Self.performanceSuccessPercent ? "PASS" : "FAIL")),
                                    ("successRate", .int(rate)), ("numPending", .int(run.pending))]
    let sorted = run.times.map(\.ms).sorted()
    if !sorted.isEmpty {
      func p(_ q: Int) -> JSON { .int(sorted[min(sorted.count - 1, sorted.count * q / 100)]) }
      fields.append(("responseTimes", .object(JSONObject([("average", .int(sorted.reduce(0, +) / sorted.count)), ("p50", p(50)), ("p90", p(90)),
                                                           ("p95", p(95)), ("p99", p(99))]))))
    }
    if !run.failures.isEmpty { fields.append(("failures", .object(JSONObject(run.failures.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })))) }
    return Answer(object(fields))
  }

  private var performanceConfig: JSON {
    .object(JSONObject([("maxConcurrentRequests", .int(1)), ("totalRequests", .int(Self.performanceTotal)),
                        ("totalDuration", .int(Self.performanceTotal * settings.performanceTestLimitMs)),
                        ("responseTimeThreshold", .int(settings.performanceTestLimitMs)), ("successRateThreshold", .int(Self.performanceSuccessPercent))]))
  }

  private func runPerformanceTest(_ requestId: String, url: String, originalTransactionId: String, productId: String, _ env: AppStoreEnvironment) async {
    let limitMs = settings.performanceTestLimitMs
    for _ in 0..<Self.performanceTotal {
      var ok = false
      var failure: String?
      let start = ContinuousClock.now
      if let sender, let payload = try? RealtimeRequest.signedPayload(
        originalTransactionId: originalTransactionId, productId: productId, userLocale: "en-US", environment: env, appAppleId: settings.appAppleId,
        requestIdentifier: UUID().uuidString.lowercased(), signedDate: wallNow, authority: authority) {
        // The sender's limit covers the body too (BoundedExchange), and checks the stored URL
        // first: a URL no request can go to is a failed request (OTHER), never a crash.
        let outcome = await sender.send(RealtimeRequest.body(payload), to: url, timeout: Double(limitMs) / 1000)
        ok = outcome.result == .success
        if !ok { failure = outcome.result.rawValue }
      } else {
        failure = "OTHER"
      }
      let elapsed = ContinuousClock.now - start
      let ms = Int(elapsed.components.seconds) * 1000 + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
      // An answer that came in full but after the threshold (the sender's own bookkeeping is not
      // free) is not a pass either.
      if ok, ms > limitMs {
        ok = false
        failure = SendAttemptResult.timedOut.rawValue
      }
      lock.withLock {
        performanceTests[requestId]?.times.append((ms, ok))
        performanceTests[requestId]?.pending -= 1
        if let failure { performanceTests[requestId]?.failures[failure, default: 0] += 1 }
      }
    }
  }
}

/// One performance test run, kept while the server runs (as test notifications are).
struct PerformanceRun {
  var target: String
  var pending = LocalAppStoreAPI.performanceTotal
  var times: [(ms: Int, ok: Bool)] = []
  var failures: [String: Int] = [:]
}
