import DashModel
import Testing
@testable import NotificationDelivery
import CoreValues

/// The log line of a failed attempt states the wait from when it is written: an attempt that took
/// longer than the gap to its retry (a refused connection retried until the connect timeout) is
/// retried at once, and the line says "now" rather than a wait already over.
@Suite struct AttemptLineTests {
  static let start = Instant(ms: 1_780_000_000_000)

  static func line(retryIn gap: Span, tookMs: Int) -> String {
    let d = Delivery(notificationUUID: "7819afd7-0000", notificationType: "DID_RENEW", subtype: nil, signedDate: start,
                     signedPayload: "x.y.z", firstAttempt: start)
    let r = Deliverer.AttemptResult(delivery: d, attempt: DeliveryAttempt(attemptDate: start, result: .socketIssue),
                                    detail: "connection refused")
    return Deliverer.line(d, r, attempt: 2, of: 6, retryAt: start + gap, now: start + Span(ms: Double(tookMs)))
  }

  @Test func theWaitRunsFromWhenTheAttemptEnded() {
    #expect(Self.line(retryIn: Span(ms: 1_200), tookMs: 200).hasSuffix("SOCKET_ISSUE: connection refused; retry 3 of 6 in 1.0s"), "\(Self.line(retryIn: Span(ms: 1_200), tookMs: 200))")
    #expect(Self.line(retryIn: Span(ms: 200), tookMs: 5_000).hasSuffix("retry 3 of 6 now"))
    #expect(Self.line(retryIn: Span(ms: 200), tookMs: 200).hasSuffix("retry 3 of 6 now"))
    #expect(Self.line(retryIn: Span(ms: 200), tookMs: 199).contains("retry 3 of 6 in "))
  }
}
