import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView

/// Enter on an event shows the whole notification, every field with its path and each date also
/// in ISO 8601; j/k step through the log without closing it.
@Suite struct EventDetailTests {
  let vm = Scenarios.example("grace-period").viewModel()

  func open() -> UIState {
    var ui = UIState()
    #expect(reduce(&ui, .keyPressed(.enter), context: vm) == [])
    #expect(ui.mode == .eventDetail(offset: 0))
    return ui
  }

  @Test func enterShowsTheSelectedNotificationWhole() throws {
    let ui = open()
    let screen = render(vm, ui, width: 80, height: 24).textDump
    let newest = try #require(vm.notifications.first)
    #expect(screen.contains("Event 1 of \(vm.notifications.count)"))
    #expect(screen.contains("notificationType: DID_FAIL_TO_RENEW"))
    #expect(screen.contains("subtype: GRACE_PERIOD"))
    #expect(screen.contains("notificationUUID: \(try #require(newest.notificationUUID))"))
    let signed = try #require(newest.signedDate)
    #expect(screen.contains("signedDate: \(Int64(signed.ms))  (\(signed))"))
  }

  @Test func jAndKStepThroughTheLogAndEscapeCloses() {
    var ui = open()
    _ = reduce(&ui, .keyPressed(.char("j")), context: vm)
    #expect(ui.eventSelection == 1)
    #expect(render(vm, ui, width: 80, height: 24).textDump.contains("notificationType: DID_RENEW"))
    _ = reduce(&ui, .keyPressed(.char("k")), context: vm)
    #expect(ui.eventSelection == 0)
    _ = reduce(&ui, .keyPressed(.escape), context: vm)
    #expect(ui.mode == .browsing)
  }

  @Test func withNoEventsEnterSaysSo() {
    let empty = Scenarios.example("new-subscriber").viewModel()
    var ui = UIState()
    _ = reduce(&ui, .keyPressed(.enter), context: empty)
    #expect(ui.mode == .browsing)
    #expect(ui.status == .error("no events to show yet"))
  }

  @Test func hostileFieldsAreShownNotExecuted() {
    let s = Scenarios.active.with { s in
      var n = NotificationRecord(type: .didRenew, uuid: "u\u{1B}[2J", signedDate: Scenarios.active.now, status: .active)
      n.summary = "\u{202E}reversed"
      s.subscriber.notifications.append(n)
    }
    let v = s.viewModel()
    let lines = Overlays.eventLines(v, selection: 0).map(\.text).joined(separator: "\n")
    #expect(!lines.contains("\u{1B}"))
    #expect(!lines.contains("\u{202E}"))
  }
}
