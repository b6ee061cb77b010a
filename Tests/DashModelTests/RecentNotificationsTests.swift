import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// `show --events 2` and the dashboard's event list take the newest notifications. A hand-made
/// inline log may be stored out of date order; the newest must still come first, none skipped.
@Suite("Storage: recent notifications")
struct RecentNotificationsTests {
  func state(log dates: [Double?]) throws -> SubscriptionState {
    var s = try StateFile.load(path: ExamplesTests.directory.appendingPathComponent("active.json").path)
    s.document.subscriber.notifications = dates.enumerated().map { i, d in
      NotificationRecord(type: NotificationType(rawValue: "E\(i)"), uuid: nil, signedDate: d.map { Instant(ms: $0) }, status: .active)
    }
    s.document.journal = nil
    return s
  }

  @Test func anOutOfOrderLogStillGivesTheNewestFirst() throws {
    let s = try state(log: [1_000, 4_000, 2_000, 3_000])
    let recent = try StateFile.recentNotifications(s, statePath: "/nonexistent/state.json", limit: 2)
    #expect(recent.map(\.notificationType.rawValue) == ["E1", "E3"])
  }

  @Test func equalDatesKeepTheirOrderAndUndatedAreOldest() throws {
    let s = try state(log: [2_000, nil, 2_000, 1_000])
    let recent = try StateFile.recentNotifications(s, statePath: "/nonexistent/state.json", limit: 4)
    #expect(recent.map(\.notificationType.rawValue) == ["E2", "E0", "E3", "E1"])
  }
}
