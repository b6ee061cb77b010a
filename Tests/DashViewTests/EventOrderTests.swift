import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues

/// The events panel lists notifications newest first. The runtime hands them over newest first
/// (`StateFile.recentNotifications`: journal tail, then the inline log, each reversed); records
/// signed at the same instant must keep that order.
@Suite struct EventOrderTests {
  let t = Scenarios.active.now

  func record(_ type: String, _ subtype: String?, at instant: Instant?) -> NotificationRecord {
    NotificationRecord(type: NotificationType(rawValue: type), subtype: subtype.map(NotificationSubtype.init(rawValue:)), uuid: nil, signedDate: instant, status: .active)
  }

  func shown(_ newestFirst: [NotificationRecord]) -> [String] {
    let s = Scenarios.active
    let vm = ViewModel.derived(state: s.state, notifications: newestFirst, fileName: "active.json", clock: s.clock)
    return vm.notifications.map { [$0.notificationType.rawValue, $0.subtype?.rawValue].compactMap { $0 }.joined(separator: "/") }
  }

  /// A downgrade and then a code upgrade at one simulated instant: the upgrade is the newer event.
  @Test func sameInstantKeepsTheGivenNewestFirstOrder() {
    let given = [
      record("OFFER_REDEEMED", "UPGRADE", at: t),
      record("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE", at: t),
      record("DID_RENEW", nil, at: t - .days(21)),
    ]
    #expect(shown(given) == ["OFFER_REDEEMED/UPGRADE", "DID_CHANGE_RENEWAL_PREF/DOWNGRADE", "DID_RENEW"])
  }

  /// Dates decide first (1 ms apart is enough), whatever the order given; undated records go last.
  @Test func laterSignedDateComesFirstAndUndatedLast() {
    let given = [
      record("UNDATED", nil, at: nil),
      record("DID_RENEW", nil, at: t - Span(ms: 1)),
      record("DID_FAIL_TO_RENEW", nil, at: t),
    ]
    #expect(shown(given) == ["DID_FAIL_TO_RENEW", "DID_RENEW", "UNDATED"])
  }
}
