import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues

/// A support agent must tell AUTO_RENEW_ENABLED from AUTO_RENEW_DISABLED at 80 columns, and a
/// ticket made with `subdash show` carries every label and plan name whole.
@Suite struct EventLabelTests {
  let t = Instant(ms: 1_778_770_800_000)

  func model(_ records: [NotificationRecord]) -> ViewModel {
    let s = Scenarios.active
    return ViewModel.derived(state: s.state, notifications: records, fileName: "active.json", clock: s.clock)
  }

  var toggles: [NotificationRecord] {
    [
      NotificationRecord(type: .didChangeRenewalStatus, subtype: .autoRenewEnabled, uuid: nil, signedDate: t, status: .active),
      NotificationRecord(type: .didChangeRenewalStatus, subtype: .autoRenewDisabled, uuid: nil, signedDate: t - .hours(1), status: .active),
    ]
  }

  @Test func aLongLabelKeepsItsSubtypeOnAnEightyColumnScreen() {
    let screen = render(model(toggles), UIState(), width: 80, height: 24).textDump
    #expect(screen.contains("DID_CHANGE_REN… / AUTO_RENEW_ENABLED"))
    #expect(screen.contains("DID_CHANGE_RE… / AUTO_RENEW_DISABLED"))
  }

  @Test func aShortLabelIsLeftAlone() {
    let n = NotificationRecord(type: .didRenew, subtype: .billingRecovery, uuid: nil, signedDate: t, status: .active)
    #expect(EventsPanel.fit(n, width: 36) == "DID_RENEW / BILLING_RECOVERY")
  }

  @Test func theTicketReportTruncatesNothing() {
    let lines = PlainReport.lines(model(toggles))
    #expect(lines.contains { $0.contains("DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED") })
    #expect(!lines.contains { $0.contains("…") })
  }
}
