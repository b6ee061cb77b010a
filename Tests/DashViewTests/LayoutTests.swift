import Testing
@testable import DashModel
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
  /// plan 3, plans 6, win-back 2 and events 2: each boundary is tested on both sides.
  @Test func panelsAreDroppedEventsFirstThenWinBackThenPlans() {
    let vm = Scenarios.active.viewModel()
    let all = ["Current plan", "Plans in", "Win-back offers", "Recent events"]
    #expect(sections(render(vm, UIState(), width: 80, height: 18)) == all)
    #expect(sections(render(vm, UIState(), width: 80, height: 17)) == Array(all.prefix(3)))
    #expect(sections(render(vm, UIState(), width: 80, height: 16)) == Array(all.prefix(3)))
    #expect(sections(render(vm, UIState(), width: 80, height: 15)) == Array(all.prefix(2)))
    #expect(sections(render(vm, UIState(), width: 80, height: 14)) == Array(all.prefix(2)))
    #expect(sections(render(vm, UIState(), width: 80, height: 13)) == Array(all.prefix(1)))
  }

  @Test func tallerScreensShowMoreEvents() {
    let vm = Scenarios.active.viewModel()
    let rows = { (h: Int) in render(vm, UIState(), width: 80, height: h).lines.filter { $0.contains("DID_RENEW") }.count }
    #expect(rows(24) < rows(30) || rows(24) == vm.notifications.count - 1)
    #expect(rows(30) == 4)
  }

  @Test func wideScreensPutEventsInASecondColumn() {
    let frame = render(Scenarios.active.viewModel(), UIState(), width: 150, height: 40)
    let row = frame.lines.first { $0.contains("Current plan") }!
    #expect(row.contains("Recent events"))
    // The events column is wide enough for whole labels.
    #expect(frame.textDump.contains("DID_CHANGE_RENEWAL_PREF / UPGRADE") || !frame.textDump.contains("DID_CHANGE_RENEWAL_PREF"))
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
      s.subscriber.notifications.append(NotificationRecord(type: "DID_RENEW\u{1B}[2J", subtype: "\u{202E}EVIL", uuid: "x",
                                                           signedDate: Scenarios.active.now, status: .active, summary: "line\nbreak"))
    }
    let frame = render(s.viewModel(), UIState(), width: 100, height: 30)
    let text = frame.textDump
    #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
    #expect(text.contains("DID_RENEW␛[2J"))
    #expect(text.contains("line␊break"))
  }
}
