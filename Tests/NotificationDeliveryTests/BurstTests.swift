import DashModel
import Foundation
import NotificationDelivery
import Testing
import CoreValues

/// Issue 37 §4: `subdash deliver --to URL FILE` (no --drain) sends every committed notification
/// at once, including the last of a burst that lands while an earlier one is in flight, and a stop
/// counts what is still unsent.
@Suite(.serialized) struct BurstTests {
  /// The simulator's steps land while the deliverer is sending: the first notification is read
  /// and sent, and before its attempt is recorded a burst of three more is committed. All four
  /// reach the receiver with no further write to the file.
  @Test(arguments: [20.0])
  func aBurstCommittedWhileOneIsInFlightAllArrivesWithoutAnotherWrite(deadlineSeconds: Double) async throws {
    let sim = try DeliveryFixture()
    defer { sim.remove() }
    let backend = try Backend(ca: DeliveryFixture.ca)
    let written = Lines()
    let http = HTTPNotificationSender()
    let sender = BurstDuringFirstSend(inner: http) {
      for n in try sim.renew(3) { written.add(n.notificationUUID ?? "?") }
    }
    let log = Lines()
    let deadline = Date().addingTimeInterval(deadlineSeconds)
    let totals = try await backend.serve { url in
      // Without --drain, as `subdash deliver --to URL FILE` runs: no closing read rescues a
      // notification the loop passed over. Stops as soon as all four arrived, or at the deadline.
      try await Deliverer(path: sim.path, options: DeliveryOptions(url: url, timeout: 2), signer: NotificationSigner(authority: DeliveryFixture.ca),
                          sender: sender, wallClock: Self.wallClock, log: { log.add($0) })
        .run(stop: { backend.uuidsAccepted.count >= 4 || Date() > deadline }, drain: { false }, started: {
          for n in (try? sim.renew(1)) ?? [] { written.add(n.notificationUUID ?? "?") }
        })
    }
    await http.shutdown()
    #expect(written.all.count == 4)
    #expect(backend.uuidsAccepted == written.all, "arrived \(backend.uuidsAccepted.count) of 4 within \(deadlineSeconds) s: \(log.all)")
    #expect(totals.delivered == 4 && totals.pending == 0)
    #expect(totals.summary(stopped: true) == "subdash deliver: stopped; 4 attempts, 4 delivered, nothing pending")
  }

  /// A stop that comes after a notification is committed and before it is read: it is counted as
  /// pending (not "nothing pending"), kept in the file, and the next run sends it.
  @Test func aStopWithOneCommittedAndUnsentCountsItAndTheNextRunSendsIt() async throws {
    let sim = try DeliveryFixture()
    defer { sim.remove() }
    let backend = try Backend(ca: DeliveryFixture.ca)
    let stop = Lines()
    let written = Lines()
    let totals = try await backend.serve { url in
      let (deliverer, sender) = sim.deliverer(to: url)
      do {
        let totals = try await deliverer.run(stop: { !stop.all.isEmpty }, drain: { false }, started: {
          for n in (try? sim.renew(1)) ?? [] { written.add(n.notificationUUID ?? "?") }
          stop.add("SIGTERM")
        })
        await sender.shutdown()
        return totals
      } catch {
        await sender.shutdown()
        throw error
      }
    }
    #expect(backend.received.isEmpty)
    #expect(totals.pending == 1 && totals.attempts == 0)
    let line = totals.summary(stopped: true)
    #expect(line.contains("1 pending") && !line.contains("nothing pending"), "\(line)")
    #expect(try sim.book?.pending.map(\.notificationUUID) == written.all)

    let log = Lines()
    _ = try await backend.serve { url in try await sim.deliverAll(to: url, log: log) }
    #expect(log.all.contains { $0.contains("resuming 1 pending delivery") }, "\(log.all)")
    #expect(backend.uuidsAccepted == written.all)
  }

  static let wallClock: @Sendable () -> Instant = { Instant(ms: (Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}

/// The real HTTP sender, with the simulator's burst written once, after the first request was
/// answered and before the deliverer records its attempt (what `simulate --steps 3` does to a
/// deliverer that is sending its first step).
final class BurstDuringFirstSend: NotificationSending, @unchecked Sendable {
  private let inner: any NotificationSending
  private let burst: () throws -> Void
  private let lock = NSLock()
  private var done = false

  init(inner: any NotificationSending, burst: @escaping () throws -> Void) {
    self.inner = inner
    self.burst = burst
  }

  func send(_ body: [UInt8], to url: String, timeout: Double) async -> SendOutcome {
    let outcome = await inner.send(body, to: url, timeout: timeout)
    let first = lock.withLock { () -> Bool in
      defer { done = true }
      return !done
    }
    if first { try? burst() }
    return outcome
  }
}
