import DashModel
import Foundation
import NotificationDelivery
import Testing
import CoreValues
import SubscriberStorage

/// `subdash deliver` against a real backend on loopback (SubDash's own receiver, which verifies
/// every signature against the test CA's root): what arrives, what is retried, what the state
/// file records. Apple's own library checks the same notifications in Tests/oracle/deliver.sh.
@Suite(.serialized) struct DeliveryTests {
  @Test func everyNewNotificationArrivesSignedAndTheBackendHoldsEachOnce() async throws {
    let sim = try DeliveryFixture()
    defer { sim.remove() }
    let backend = try Backend(ca: DeliveryFixture.ca)
    let written = Lines()
    let totals = try await backend.serve { url in
      try await sim.deliverAll(to: url, whileRunning: { for n in try sim.renew(3) { written.add(n.notificationUUID!) } })
    }
    #expect(backend.uuidsAccepted == written.all)
    #expect(totals.delivered == 3 && totals.attempts == 3)
    let book = try #require(try sim.book)
    #expect(book.pending.isEmpty && book.delivered == 3)
    #expect(book.recent.map(\.notificationUUID) == written.all)
    #expect(book.recent.allSatisfy { $0.sendAttempts.map(\.result) == [.success] && $0.sendAttempts[0].httpStatus == 200 })
    // The backend's own file for the subscriber: every notification once, the newest renewal as latest.
    let theirs = try StateFile.load(path: backend.directory + "/2000000871234560.json")
    let ours = try sim.state
    #expect(theirs.subscriber.latestTransaction?.transactionId == ours.subscriber.latestTransaction?.transactionId)
    #expect(theirs.historySummary.notificationCount == 3)
  }

  @Test func notificationsWrittenBeforeDeliveryStartedAreNotSent() async throws {
    let sim = try DeliveryFixture()
    defer { sim.remove() }
    try sim.renew(2)
    let backend = try Backend(ca: DeliveryFixture.ca)
    let written = Lines()
    _ = try await backend.serve { url in
      try await sim.deliverAll(to: url, whileRunning: { for n in try sim.renew(1) { written.add(n.notificationUUID!) } })
    }
    #expect(backend.uuidsAccepted == written.all)
    #expect(written.all.count == 1)
  }

  /// A backend that refuses says why in its answer: the deliverer's log line carries it, so a
  /// developer sees "wrong bundle id" rather than a bare 403.
  @Test func aRefusalsReasonIsInTheLog() async throws {
    let sim = try DeliveryFixture()
    defer { sim.remove() }
    let backend = try Backend(ca: DeliveryFixture.ca, bundleId: "com.example.other")
    let log = Lines()
    _ = try await backend.serve { url in
      try await sim.deliverAll(to: url, { $0.schedule = .sandbox }, log: log, whileRunning: { try sim.renew(1) })
    }
    #expect(log.all.contains { $0.hasPrefix("✗ DID_RENEW") && $0.contains("403 (UNSUCCESSFUL_HTTP_RESPONSE_CODE): refused:") && $0.contains("not com.example.other") },
            "\(log.all)")
  }

  @Test func aFailingBackendIsRetriedOnApplesScheduleScaledByTheRate() async throws {
    let sim = try DeliveryFixture()
    defer { sim.remove() }
    let backend = try Backend(ca: DeliveryFixture.ca, failFirst: [500, 503])
    let log = Lines()
    _ = try await backend.serve { url in try await sim.deliverAll(to: url, log: log, whileRunning: { try sim.renew(1) }) }
    let book = try #require(try sim.book)
    let d = try #require(book.recent.first)
    #expect(d.sendAttempts.map(\.result) == [.unsuccessfulHTTPResponseCode, .unsuccessfulHTTPResponseCode, .success])
    #expect(d.sendAttempts.map(\.httpStatus) == [500, 503, 200])
    #expect(d.firstSendAttemptResult == .unsuccessfulHTTPResponseCode)
    // One hour, then twelve, of subscription time at one renewal (a month) every two seconds.
    let hour = TimeRate.oneRenewalEveryTwoSeconds.wallClock(for: .hours(1), period: try ISOPeriod(parsing: "P1M")).ms
    let gaps = zip(d.sendAttempts.dropFirst(), d.sendAttempts).map { ($0.attemptDate - $1.attemptDate).ms }
    #expect(gaps[0] >= hour - 1 && gaps[1] >= 12 * hour - 1)
    #expect(backend.received.count == 3)
    #expect(log.all.contains { $0.hasPrefix("✗ DID_RENEW") && $0.contains("500 (UNSUCCESSFUL_HTTP_RESPONSE_CODE); retry 2 of 6") })
    #expect(log.all.contains { $0.hasPrefix("✓ DID_RENEW") && $0.contains("(attempt 3)") })
  }

  @Test func aBackendThatNeverAcceptsIsGivenUpAfterSixAttempts() async throws {
    let sim = try DeliveryFixture()
    defer { sim.remove() }
    let backend = try Backend(ca: DeliveryFixture.ca, failFirst: Array(repeating: 500, count: 10))
    let log = Lines()
    let totals = try await backend.serve { url in try await sim.deliverAll(to: url, log: log, whileRunning: { try sim.renew(1) }) }
    let book = try #require(try sim.book)
    #expect(book.failed == 1 && book.delivered == 0 && book.pending.isEmpty)
    #expect(book.recent.first?.sendAttempts.count == 6)
    #expect(backend.received.count == 6)
    #expect(totals.gaveUp == 1)
    #expect(log.all.last?.contains("gave up after 6 attempts") == true)
  }

  @Test func theSandboxScheduleMakesOneAttemptOnly() async throws {
    let sim = try DeliveryFixture()
    defer { sim.remove() }
    let backend = try Backend(ca: DeliveryFixture.ca, failFirst: [500])
    _ = try await backend.serve { url in
      try await sim.deliverAll(to: url, { $0.schedule = .sandbox }, whileRunning: { try sim.renew(1) })
    }
    let book = try #require(try sim.book)
    #expect(book.failed == 1 && book.recent.first?.sendAttempts.count == 1)
    #expect(backend.received.count == 1)
  }

  @Test func duplicatesCarryTheSameBytesAndTheBackendAppliesEachNotificationOnce() async throws {
    let sim = try DeliveryFixture()
    defer { sim.remove() }
    let backend = try Backend(ca: DeliveryFixture.ca)
    let totals = try await backend.serve { url in
      try await sim.deliverAll(to: url, { $0.duplicateRate = 1 }, whileRunning: { try sim.renew(2) })
    }
    let byUUID = Dictionary(grouping: backend.received, by: \.uuid)
    #expect(byUUID.count == 2)
    #expect(byUUID.values.allSatisfy { $0.count == 2 && $0[0].body == $0[1].body && $0.allSatisfy { $0.status == 200 } })
    #expect(totals.duplicates == 2 && totals.delivered == 2)
    let book = try #require(try sim.book)
    #expect(book.duplicatesSent == 2 && book.recent.filter(\.isDuplicate).count == 2)
    let theirs = try StateFile.load(path: backend.directory + "/2000000871234560.json")
    #expect(theirs.historySummary.notificationCount == 2)
  }

  @Test func aReorderWindowDeliversCloseNotificationsOutOfOrderAndTheNewestStateStillWins() async throws {
    let sim = try DeliveryFixture()
    defer { sim.remove() }
    let backend = try Backend(ca: DeliveryFixture.ca)
    let written = Lines()
    _ = try await backend.serve { url in
      try await sim.deliverAll(to: url, { $0.reorderWindow = 0.6; $0.seed = 7 },
                               whileRunning: { for n in try sim.renew(6) { written.add(n.notificationUUID!) } })
    }
    #expect(Set(backend.uuidsAccepted) == Set(written.all) && backend.uuidsAccepted.count == 6)
    #expect(backend.uuidsAccepted != written.all, "with a 0.6 s window and seed 7 some renewals arrive before older ones")
    let theirs = try StateFile.load(path: backend.directory + "/2000000871234560.json")
    #expect(theirs.subscriber.latestTransaction?.transactionId == (try sim.state).subscriber.latestTransaction?.transactionId)
  }

  @Test func pendingDeliveriesSurviveARestartAndGoToTheNewURL() async throws {
    let sim = try DeliveryFixture()
    defer { sim.remove() }
    // Nothing listens on the first URL: a closed loopback port.
    let closed = "http://127.0.0.1:\(try Self.closedPort())/"
    let firstLog = Lines()
    let (first, sender) = sim.deliverer(to: closed, log: firstLog)
    let started = Lines()
    let deadline = Date().addingTimeInterval(20)
    _ = try await first.run(stop: { !firstLog.all.isEmpty || Date() > deadline }, drain: { false }, started: {
      _ = try? sim.renew(1)
      started.add("x")
    })
    await sender.shutdown()
    #expect(firstLog.all.first?.contains("SOCKET_ISSUE: connection refused; retry 2 of 6") == true)
    #expect(try sim.book?.pending.count == 1)

    let backend = try Backend(ca: DeliveryFixture.ca)
    let log = Lines()
    _ = try await backend.serve { url in try await sim.deliverAll(to: url, log: log) }
    #expect(log.all.contains { $0.contains("resuming 1 pending delivery") })
    #expect(log.all.contains { $0.contains("delivered to http://127.0.0.1:") || $0.contains("this file delivered to \(closed)") })
    let book = try #require(try sim.book)
    #expect(book.pending.isEmpty && book.delivered == 1)
    #expect(book.recent.first?.sendAttempts.map(\.result) == [.socketIssue, .success])
    #expect(backend.uuidsAccepted.count == 1)
  }

  /// A port nothing listens on: bound and closed again.
  static func closedPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = 0
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
    _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
    return Int(UInt16(bigEndian: addr.sin_port))
  }
}
