import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// notificationUUID must be unique across subscribers: a test server de-duplicates notifications
/// by it, as Apple asks servers to. It stays reproducible for the same file and seed.
@Suite("Notification UUIDs")
struct NotificationIdentityTests {
  typealias F = ActionsFixture

  /// The same key pressed at the same virtual moment on every example file that is subscribed:
  /// the files share the seed (0, the default), the clock and often the notification count.
  @Test func theSameKeyOnDifferentExampleFilesGivesDifferentUUIDs() throws {
    var uuids: [String: String] = [:]
    var refunded = 0
    for stem in try ExamplesTests.stems().sorted() {
      let state = try StateFile.load(path: ExamplesTests.directory.appendingPathComponent("\(stem).json").path)
      guard case .success(let change) = Simulator.apply(.refund, to: state, at: try Simulator.clock(state)) else { continue }
      refunded += 1
      for n in change.notifications {
        let uuid = try #require(n.notificationUUID)
        #expect(uuids[uuid] == nil, "\(stem).json repeats \(uuid) of \(uuids[uuid] ?? "")")
        uuids[uuid] = "\(stem).json"
      }
    }
    #expect(refunded >= 8)  // most examples are subscribed; the rest are refused, not skipped silently
  }

  @Test func twoSubscribersDifferingOnlyInTheirIdsGetDifferentUUIDs() throws {
    let one = F.state()
    var other = F.state()
    other.subscriber.latestTransaction?.originalTransactionId = "1000000222"
    other.subscriber.renewalInfo?.originalTransactionId = "1000000222"
    let token = F.state(transactionExtras: #", "appAccountToken": "0f5a2b1c-8d6e-4f70-9a1b-2c3d4e5f6a7b""#)
    let action = PlanAction.downgrade(toProductId: "pass.individual")
    let a = try applied(action, to: one, at: F.midPeriod).notifications[0].notificationUUID
    let b = try applied(action, to: other, at: F.midPeriod).notifications[0].notificationUUID
    let c = try applied(action, to: token, at: F.midPeriod).notifications[0].notificationUUID
    #expect(Set([a, b, c]).count == 3)
    // The simulator's notifications too.
    let simA = try Simulator.apply(.refund, to: one, at: F.midPeriod).get().notifications.map(\.notificationUUID)
    let simB = try Simulator.apply(.refund, to: other, at: F.midPeriod).get().notifications.map(\.notificationUUID)
    #expect(Set(simA).isDisjoint(with: simB))
  }

  @Test func theSameFileAndSeedGiveTheSameUUIDs() throws {
    let action = PlanAction.downgrade(toProductId: "pass.individual")
    let first = try applied(action, to: F.state(), at: F.midPeriod).notifications[0].notificationUUID
    let again = try applied(action, to: F.state(), at: F.midPeriod).notifications[0].notificationUUID
    #expect(first == again)
    let seeded = F.state(documentExtras: #""simulation": { "seed": 7 },"#)
    #expect(try applied(action, to: seeded, at: F.midPeriod).notifications[0].notificationUUID != first)
  }
}
