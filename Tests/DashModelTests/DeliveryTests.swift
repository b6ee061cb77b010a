import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// Apple's delivery rules as SubDash keeps them: the retry schedule, when an attempt is due, what
/// the state file records, and which transaction a notification carries.
@Suite struct DeliveryTests {
  static let t0 = Instant(ms: 1_790_000_000_000)
  static let monthly = try! ISOPeriod(parsing: "P1M")

  @Test func productionRetriesComeOneTwelveTwentyFourFortyEightAndSeventyTwoHoursAfterThePreviousAttempt() {
    var last = Self.t0
    var waits: [Double] = []
    for attempt in 1...5 {
      let next = RetrySchedule.production.nextAttempt(afterAttempts: attempt, lastAt: last, timing: TimeRate.realTime, period: Self.monthly)!
      waits.append((next - last).ms / Span.hour.ms)
      last = next + Span(ms: 37)  // the attempt itself took a moment; the next wait counts from it
    }
    #expect(waits == [1, 12, 24, 48, 72])
    #expect(RetrySchedule.production.nextAttempt(afterAttempts: 6, lastAt: last, timing: TimeRate.realTime, period: Self.monthly) == nil)
    #expect(RetrySchedule.production.maxAttempts == 6)
  }

  @Test func applesSandboxMakesOneAttemptAndNeverRetries() {
    #expect(RetrySchedule.sandbox.nextAttempt(afterAttempts: 1, lastAt: Self.t0, timing: TimeRate.realTime, period: Self.monthly) == nil)
    #expect(RetrySchedule.sandbox.maxAttempts == 1)
  }

  @Test func atFiveMinuteMonthsAnHourOfRetryWaitIsAboutFourTenthsOfASecond() {
    let rate = TimeRate.monthlyRenewalEveryFiveMinutes
    let next = RetrySchedule.production.nextAttempt(afterAttempts: 1, lastAt: Self.t0, timing: rate, period: Self.monthly)!
    #expect(abs((next - Self.t0).ms - 300_000.0 / 720) < 0.01)
    // The whole schedule (157 hours of subscription time) takes about a minute of wall time.
    let total = RetrySchedule.production.delays.reduce(Span.zero) { $0 + rate.wallClock(for: $1, period: Self.monthly) }
    #expect(abs(total.ms - 65_416.67) < 1)
  }

  @Test func aRetryIsDueAtItsMillisecondAndNotOneBefore() {
    var book = DeliveryBook(url: "http://127.0.0.1:9/", journalOffset: 0, schedule: .production)
    book.enqueue(Self.delivery("a", at: Self.t0))
    book.record(DeliveryAttempt(attemptDate: Self.t0, result: .unsuccessfulHTTPResponseCode, httpStatus: 500), forPendingAt: 0,
                retryAt: Self.t0 + .hours(1))
    let due = Self.t0 + .hours(1)
    #expect(book.due(at: due - .millisecond).isEmpty)
    #expect(book.due(at: due).map(\.notificationUUID) == ["a"])
    #expect(book.nextDue == due)
  }

  @Test func aDeliveredNotificationMovesToRecentWithoutItsPayloadAndIsCounted() {
    var book = DeliveryBook(url: "http://127.0.0.1:9/", journalOffset: 0, schedule: .production)
    book.enqueue(Self.delivery("a", at: Self.t0))
    book.enqueue(Self.delivery("b", at: Self.t0))
    book.record(DeliveryAttempt(attemptDate: Self.t0, result: .success, httpStatus: 200, milliseconds: 12), forPendingAt: 0, retryAt: nil)
    book.record(DeliveryAttempt(attemptDate: Self.t0, result: .timedOut), forPendingAt: 0, retryAt: nil)  // schedule spent
    #expect(book.pending.isEmpty)
    #expect(book.recent.map(\.notificationUUID) == ["a", "b"])
    #expect(book.recent.allSatisfy { $0.signedPayload == nil && $0.nextAttemptDate == nil })
    #expect(book.delivered == 1 && book.failed == 1)
    #expect(book.recent[1].firstSendAttemptResult == .timedOut)
  }

  @Test func theFileKeepsOnlyTheLastHundredFinishedDeliveries() {
    var book = DeliveryBook(url: "http://127.0.0.1:9/", journalOffset: 0, schedule: .production)
    for i in 0..<130 {
      book.enqueue(Self.delivery("n\(i)", at: Self.t0))
      book.record(DeliveryAttempt(attemptDate: Self.t0, result: .success, httpStatus: 200), forPendingAt: 0, retryAt: nil)
    }
    #expect(book.recent.count == DeliveryBook.recentLimit)
    #expect(book.recent.first?.notificationUUID == "n30")
    #expect(book.delivered == 130)
  }

  @Test func deliveriesRoundTripThroughTheStateFileKeepingFieldsSubDashDoesNotKnow() throws {
    let dir = TempDir()
    let path = try Self.activeSubscriber(in: dir)
    var book = DeliveryBook(url: "https://backend.example/apple", journalOffset: 0, schedule: .sandbox)
    book.source["teamNote"] = .string("kept")
    book.enqueue(Self.delivery("u-1", at: Self.t0))
    try StateFile.update(path: path) { s in
      var next = s
      next.document.deliveries = book
      return Change(state: next, message: "test")
    }
    let again = try #require(try StateFile.load(path: path).document.deliveries)
    #expect(again.url == "https://backend.example/apple")
    #expect(again.schedule == .sandbox)
    #expect(again.pending.map(\.signedPayload) == ["payload-u-1"])
    #expect(again.source["teamNote"] == .string("kept"))
  }

  @Test func anUnknownAttemptResultIsRefusedWithItsPath() throws {
    let dir = TempDir()
    let path = try Self.activeSubscriber(in: dir)
    var text = dir.text("active.json")
    let bad = #""deliveries": {"url": "http://x/", "recent": [{"notificationUUID": "a", "notificationType": "DID_RENEW", "sendAttempts": [{"attemptDate": 1790000000000, "sendAttemptResult": "DELIVERED"}]}]},"#
    text = text.replacingOccurrences(of: "\"subscriber\":", with: bad + "\n  \"subscriber\":")
    dir.write("active.json", text)
    let error = #expect(throws: StateFileError.self) { try StateFile.load(path: path) }
    #expect(error?.description.contains("deliveries.recent[0].sendAttempts[0].sendAttemptResult") == true)
    #expect(error?.description.contains("DELIVERED") == true)
  }

  @Test func eachNotificationCarriesTheNewestTransactionWrittenBeforeIt() throws {
    let dir = TempDir()
    let path = try Self.activeSubscriber(in: dir, delivered: true)
    let before = try StateFile.load(path: path)
    let offset = before.document.journal?.committedBytes ?? 0
    // Two renewals, then auto-renew off (a notification with no transaction of its own).
    for _ in 0..<2 { try Self.step(path) { s throws(ActionError) in try Simulator.advanceToNextEvent(s) } }
    try Self.step(path) { s throws(ActionError) in
      try Actions.apply(.setAutoRenew(false), to: s, at: try Simulator.clock(s), timing: TimeRate.realTime).get()
    }
    let after = try StateFile.load(path: path)
    let journal = try #require(after.document.journal)
    let entries = try Journal.entries(path: dir.file(journal.file), after: offset, committedBytes: journal.committedBytes)
    var intake = DeliveryIntake(lastTransaction: before.subscriber.latestTransaction)
    let taken = intake.take(entries)
    #expect(taken.map(\.notification.notificationType) == [.didRenew, .didRenew, .didChangeRenewalStatus])
    let renewals = entries.compactMap { if case .transaction(let t) = $0 { return t.transactionId } else { return nil } }
    #expect(renewals.count == 2)
    #expect(taken.map { $0.transaction?.transactionId } == [renewals[0], renewals[1], renewals[1]])
    // Nothing is read twice, and an offset inside a line is refused rather than misread.
    #expect(try Journal.entries(path: dir.file(journal.file), after: journal.committedBytes, committedBytes: journal.committedBytes).isEmpty)
    #expect(throws: StateFileError.self) { try Journal.entries(path: dir.file(journal.file), after: offset + 3, committedBytes: journal.committedBytes) }
  }

  @Test func theEnvelopeIsAVersionTwoPayloadWithStatusAndNestedInfoStampedAtTheNotificationsDate() throws {
    let dir = TempDir()
    let path = try Self.activeSubscriber(in: dir)
    let change = try Self.step(path) { s throws(ActionError) in try Simulator.advanceToNextEvent(s) }
    let n = try #require(change.notifications.first)
    let s = try StateFile.load(path: path)
    let envelope = NotificationEnvelope(n, transaction: change.transactions.last, renewalInfo: s.subscriber.renewalInfo)
    #expect(envelope.transaction?["signedDate"] == JSON.double(n.signedDate!.ms))
    #expect(envelope.renewalInfo?["signedDate"] == JSON.double(n.signedDate!.ms))
    #expect(envelope.environment == "Sandbox")
    let payload = try #require(envelope.payload(signedTransactionInfo: "T", signedRenewalInfo: "R").objectValue)
    #expect(payload["version"] == JSON.string("2.0"))
    #expect(payload["notificationType"] == JSON.string("DID_RENEW"))
    #expect(payload["notificationUUID"] == n.notificationUUID.map(JSON.string))
    let data = try #require(payload["data"]?.objectValue)
    #expect(data["status"] == .int(1))
    #expect(data["bundleId"] == .string("com.example.birdwatch"))
    #expect(data["signedTransactionInfo"] == .string("T") && data["signedRenewalInfo"] == .string("R"))
    // TEST notifications concern no subscription: Apple sends no nested JWS and no status.
    let test = NotificationEnvelope(NotificationRecord(type: .test, uuid: "t", signedDate: Self.t0, status: nil),
                                    transaction: change.transactions.last, renewalInfo: s.subscriber.renewalInfo)
    #expect(test.transaction == nil && test.renewalInfo == nil)
  }

  @Test func appleCountsTwoHundredToTwoHundredSixAsReceived() {
    #expect(SendAttemptResult.forStatus(199) == .unsuccessfulHTTPResponseCode)
    #expect(SendAttemptResult.forStatus(200) == .success)
    #expect(SendAttemptResult.forStatus(206) == .success)
    #expect(SendAttemptResult.forStatus(207) == .unsuccessfulHTTPResponseCode)
    #expect(SendAttemptResult.forStatus(301) == .unsuccessfulHTTPResponseCode)
  }

  /// One locked step of the engine or an action on the file, as the simulator and the dashboard make.
  @discardableResult
  static func step(_ path: String, _ body: (SubscriptionState) throws(ActionError) -> Change) throws -> Change {
    try StateFile.update(path: path, refusing: ActionError.self, body).change
  }

  static func delivery(_ uuid: String, at date: Instant) -> Delivery {
    Delivery(notificationUUID: uuid, notificationType: "DID_RENEW", subtype: nil, signedDate: date,
             signedPayload: "payload-\(uuid)", firstAttempt: date)
  }

  /// Examples/active.json and its catalog, copied.
  /// `delivered`: with a delivery book, as `subdash deliver` starts one, so its history is journaled
  /// from the next entry (the deliverer reads new notifications by journal offset).
  static func activeSubscriber(in dir: TempDir, delivered: Bool = false) throws -> String {
    let examples = Sim.repoRoot.appendingPathComponent("Examples").path
    for name in ["active.json", "backyard-birds.storekit"] {
      dir.write(name, [UInt8](FileManager.default.contents(atPath: examples + "/" + name)!))
    }
    let path = dir.file("active.json")
    if delivered {
      var state = try StateFile.load(path: path)
      state.document.deliveries = DeliveryBook(url: "http://127.0.0.1:9/", journalOffset: 0, schedule: .production)
      try AtomicWriter.write(JSONWriter.write(state.document.json), to: path)
    }
    return path
  }
}
