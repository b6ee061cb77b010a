import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues

/// At a fast simulation rate (a renewal every two seconds) a minute holds many events; the log then
/// shows seconds so it still reads as a timeline, and stays at minutes otherwise.
@Suite struct EventDateTests {
  let t = Instant(ms: 1_778_770_800_000)  // 2026-05-14 15:00:00 UTC

  func eventsText(_ dates: [Instant]) -> String {
    let s = Scenarios.active
    let records = dates.map { NotificationRecord(type: .didRenew, subtype: nil, uuid: nil, signedDate: $0, status: .active) }
    let vm = ViewModel.derived(state: s.state, notifications: records, fileName: "active.json", clock: s.clock)
    return EventsPanel.entries(vm, UIState(), width: 120).flatMap { $0 }.map(\.text).joined(separator: "\n")
  }

  @Test func eventsTwoSecondsApartShowSeconds() {
    let text = eventsText([t + .seconds(2), t])
    #expect(text.contains("May 14 15:00:02"))
    #expect(text.contains("May 14 15:00:00"))
  }

  @Test func eventsOneMinuteApartShowMinutes() {
    let text = eventsText([t + .minutes(1), t])
    #expect(text.contains("May 14 15:01  "))
    #expect(!text.contains("15:01:00"))
  }

  @Test func eventsOfOneInstantNeedNoSeconds() {
    let text = eventsText([t, t])
    #expect(!text.contains("15:00:00"))
  }

  /// June of last year would read as if it came after April of this one.
  @Test func eventsFromAnotherYearShowTheYear() {
    let text = eventsText([t, t - .days(320)])
    #expect(text.contains("2026-05-14 15:00  "))
    #expect(text.contains("2025-06-28 15:00  "))
  }
}
