import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView

@Suite struct LayoutTests {
  /// Section titles present on a frame, in order.
  func sections(_ frame: Frame) -> [String] {
    frame.lines.compactMap { line in
      for title in ["Current plan", "Plans in", "Win-back offers", "Recent events"] where line.contains("── \(title)") { return title }
      return nil
    }
  }

  /// The active example needs 5 fixed rows (header, access, footer, status) plus, at minimum,
  /// plan 3, plans 6, win-back 2 and events 2, and one row to name what is hidden: each boundary
  /// is tested on both sides.
  @Test func panelsAreDroppedEventsFirstThenWinBackThenPlans() {
    let vm = Scenarios.active.viewModel()
    let all = ["Current plan", "Plans in", "Win-back offers", "Recent events"]
    func screen(_ h: Int) -> Frame { render(vm, UIState(), width: 80, height: h) }
    #expect(sections(screen(18)) == all)
    #expect(!screen(18).textDump.contains("enlarge"))
    #expect(sections(screen(17)) == Array(all.prefix(3)))
    #expect(screen(17).lines.contains("enlarge to see events"))
    #expect(sections(screen(16)) == Array(all.prefix(2)))
    #expect(screen(16).lines.contains("enlarge to see win-back, events"))
    #expect(sections(screen(15)) == Array(all.prefix(2)))
    #expect(sections(screen(14)) == Array(all.prefix(1)))
    #expect(screen(14).lines.contains("enlarge to see plans, win-back, events"))
  }

  /// price-increase.json has 12 events: every extra row of screen is one more event.
  @Test func tallerScreensShowMoreEvents() {
    let vm = Scenarios.example("price-increase").viewModel()
    #expect(vm.notifications.count == 12)
    let title = { (h: Int) in render(vm, UIState(), width: 80, height: h).lines.first { $0.contains("Recent events") } ?? "" }
    #expect(title(24).contains("Recent events (12) 1-3 of 12"))
    #expect(title(30).contains("Recent events (12) 1-9 of 12"))
    #expect(title(33).contains("Recent events (12) ─"))
  }

  /// The events column of a wide screen shows whole labels: the subtype that tells
  /// AUTO_RENEW_DISABLED from AUTO_RENEW_ENABLED and the type before it.
  @Test(arguments: [150, 200])
  func wideScreensPutEventsInASecondColumn(_ width: Int) {
    let frame = render(Scenarios.expiredWithWinBack.viewModel(), UIState(), width: width, height: 40)
    let row = frame.lines.first { $0.contains("Current plan") }!
    #expect(row.contains("Recent events"))
    #expect(frame.textDump.contains("DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED"))
  }

  @Test func twoColumnSnapshots() {
    for (name, w, h) in [("expired-voluntary", 150, 40), ("expired-voluntary", 200, 50), ("active", 150, 40), ("price-increase", 200, 50)] {
      assertSnapshot(render(Scenarios.example(name).viewModel(), UIState(), width: w, height: h), named: "\(name)-\(w)x\(h)")
    }
  }

  /// One pixel short of two columns, one column shows the plan's status rule whole.
  @Test func oneColumnBelowOneHundredFifty() {
    let frame = render(Scenarios.active.viewModel(), UIState(), width: 149, height: 40)
    let row = frame.lines.first { $0.contains("Current plan") }!
    #expect(!row.contains("Recent events"))
  }

  /// Every size from the minimum up, every state: text stays inside the frame, the header badge,
  /// footer and access verdict are always there, and nothing crashes.
  @Test(arguments: Scenarios.allNames)
  func everySizeDrawsCleanly(_ name: String) {
    let vm = Scenarios.named(name).viewModel()
    for width in [40, 41, 59, 60, 79, 80, 99, 100, 119, 120, 149, 150, 200] {
      for height in [12, 13, 17, 24, 40, 60] {
        let frame = render(vm, UIState(), width: width, height: height)
        #expect(frame.lines.count == height)
        #expect(frame.lines.allSatisfy { DisplayWidth.of($0) <= width })
        #expect(frame.lines[0].hasPrefix("SubDash ["), "\(name) \(width)x\(height)")
        #expect(frame.lines.contains { $0.hasPrefix("ACCESS: ") }, "\(name) \(width)x\(height)")
        #expect(frame.lines[height - 2].hasPrefix("? help"), "\(name) \(width)x\(height)")
      }
    }
  }

  @Test func hostileNamesFromTheFileAreShownNotExecuted() {
    let s = Scenarios.active.with { s in
      s.subscriber.notifications.append(NotificationRecord(type: NotificationType(rawValue: "DID_RENEW\u{1B}[2J"), subtype: NotificationSubtype(rawValue: "\u{202E}EVIL"), uuid: "x",
                                                           signedDate: Scenarios.active.now, status: .active, summary: "line\nbreak"))
    }
    let frame = render(s.viewModel(), UIState(), width: 100, height: 30)
    let text = frame.textDump
    #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
    #expect(text.contains("DID_RENEW␛[2J"))
    #expect(text.contains("line␊break"))
  }
}
