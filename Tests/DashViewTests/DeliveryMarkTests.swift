import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues

/// A backend developer running `simulate --deliver` watches the events panel: each notification
/// says whether their server took it, is being retried (and when), or was given up on, in words.
@Suite struct DeliveryMarkTests {
  let t = Instant(ms: 1_778_770_800_000)

  var records: [NotificationRecord] {
    [
      NotificationRecord(type: .didRenew, uuid: "sent", signedDate: t, status: .active),
      NotificationRecord(type: .didFailToRenew, subtype: .gracePeriod, uuid: "retrying", signedDate: t - .hours(1), status: .billingGracePeriod),
      NotificationRecord(type: .expired, subtype: .voluntary, uuid: "lost", signedDate: t - .hours(2), status: .expired),
      NotificationRecord(type: .subscribed, subtype: .initialBuy, uuid: "before-delivery", signedDate: t - .hours(3), status: .active),
    ]
  }

  func model(wall: Instant) -> ViewModel {
    var s = Scenarios.active
    var book = DeliveryBook(url: "http://127.0.0.1:8080/apple", journalOffset: 0, schedule: .production)
    func add(_ uuid: String, _ type: String, _ attempts: [(SendAttemptResult, Int?)], retryAt: Instant?) {
      book.enqueue(Delivery(notificationUUID: uuid, notificationType: type, subtype: nil, signedDate: t, signedPayload: "x", firstAttempt: t))
      for (k, a) in attempts.enumerated() {
        let last = k == attempts.count - 1
        book.record(DeliveryAttempt(attemptDate: wall - .seconds(1), result: a.0, httpStatus: a.1, milliseconds: 12),
                    forPendingAt: book.pending.count - 1, retryAt: last ? retryAt : wall)
      }
    }
    add("sent", "DID_RENEW", [(.unsuccessfulHTTPResponseCode, 500), (.success, 200)], retryAt: nil)
    add("retrying", "DID_FAIL_TO_RENEW", [(.socketIssue, nil)], retryAt: wall + .seconds(4.2))
    add("lost", "EXPIRED", Array(repeating: (.unsuccessfulHTTPResponseCode, 503), count: 6), retryAt: nil)
    s.state.document.deliveries = book
    return ViewModel.derived(state: s.state, notifications: records, fileName: "active.json", clock: DashClock(simulated: s.clock.simulated, wall: wall))
  }

  @Test func eachEventSaysWhatBecameOfItsDelivery() {
    let screen = render(model(wall: t), UIState(), width: 120, height: 40).textDump
    #expect(screen.contains("Recent events (5, newest 4, to 127.0.0.1:8080/apple: 1 sent, 1 pending, 1 failed)"))
    #expect(screen.contains("sent 200 · 12 ms (attempt 2)"))
    #expect(screen.contains("no connection · retry 2/6 in 4.2s"))
    #expect(screen.contains("503 · gave up after 6"))
    let before = screen.split(separator: "\n").first { $0.contains("SUBSCRIBED / INITIAL_BUY") } ?? ""
    #expect(!before.contains("sent") && !before.contains("retry"), "notifications from before delivery started have no mark")
  }

  @Test func theRetryCountdownFollowsTheWallClock() {
    let later = render(model(wall: t), UIState(), width: 120, height: 40).textDump
    #expect(later.contains("retry 2/6 in 4.2s"))
    let lines = PlainReport.lines(model(wall: t))
    #expect(lines.contains { $0.contains("DID_FAIL_TO_RENEW / GRACE_PERIOD") && $0.contains("retry 2/6 in 4.2s") })
  }
}
