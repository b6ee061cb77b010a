import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView

/// Every lifecycle state at the design size, a wide terminal and the smallest supported one.
@Suite struct RenderSnapshotTests {
  static let sizes = [(80, 24), (120, 40), (40, 12)]

  @Test(arguments: Scenarios.allNames)
  func lifecycleStateAtEverySize(_ name: String) {
    let scenario = Scenarios.named(name)
    for (w, h) in Self.sizes {
      let frame = render(scenario.viewModel(), scenario.ui(), width: w, height: h)
      assertSnapshot(frame, named: "\(name)-\(w)x\(h)")
    }
  }

  @Test func tooSmallShowsOneLineMessage() {
    let vm = Scenarios.active.viewModel()
    let frame = render(vm, UIState(), width: 39, height: 12)
    // 39 columns cannot hold the sentence; it wraps rather than hiding the size.
    #expect(Array(frame.lines.prefix(3)) == ["Terminal too small: need 40x12, have", "39x12", ""])
    #expect(render(vm, UIState(), width: 80, height: 5).lines[0] == "Terminal too small: need 40x12, have 80x5")
    #expect(render(vm, UIState(), width: 0, height: 0).lines.isEmpty)
    assertSnapshot(render(vm, UIState(), width: 60, height: 11), named: "too-small-60x11")
  }

  @Test func asciiModeUsesNoNonASCIICharacters() {
    for scenario in [Scenarios.grace, Scenarios.billingRetryNone, Scenarios.example("pending-downgrade"), Scenarios.fileError] {
      let frame = render(scenario.viewModel(options: DisplayOptions(ascii: true)), scenario.ui(), width: 80, height: 24)
      #expect(frame.textDump.unicodeScalars.allSatisfy { $0.isASCII }, "\(scenario.name)")
    }
    assertSnapshot(render(Scenarios.grace.viewModel(options: DisplayOptions(ascii: true)), UIState(), width: 80, height: 24), named: "ascii-grace-80x24")
    var help = UIState(mode: .help(offset: 0))
    assertSnapshot(render(Scenarios.active.viewModel(options: DisplayOptions(ascii: true)), help, width: 80, height: 24), named: "ascii-help-80x24")
    help.mode = .picking(Picker(kind: .upgrade, items: Scenarios.active.viewModel().advisor.targets(.upgrade)))
    let picker = render(Scenarios.active.viewModel(options: DisplayOptions(ascii: true)), help, width: 80, height: 24)
    #expect(picker.textDump.unicodeScalars.allSatisfy { $0.isASCII })
  }

  @Test func readOnlyHeaderAndFooter() {
    let vm = Scenarios.active.viewModel(options: DisplayOptions(readOnly: true))
    assertSnapshot(render(vm, UIState(), width: 80, height: 24), named: "read-only-80x24")
  }

  @Test func productionHidesSimulationKeys() {
    assertSnapshot(render(Scenarios.production.viewModel(), UIState(mode: .help(offset: 0)), width: 120, height: 40), named: "production-help-120x40")
  }
}

/// The overlays, each at the design size and the smallest size.
@Suite struct OverlaySnapshotTests {
  @Test func help() {
    let vm = Scenarios.active.viewModel()
    assertSnapshot(render(vm, UIState(mode: .help(offset: 0)), width: 80, height: 24), named: "overlay-help-80x24")
    assertSnapshot(render(vm, UIState(mode: .help(offset: 0)), width: 120, height: 40), named: "overlay-help-120x40")
    assertSnapshot(render(vm, UIState(mode: .help(offset: 3)), width: 40, height: 12), named: "overlay-help-40x12-scrolled")
  }

  @Test func confirmation() {
    let vm = Scenarios.active.viewModel()
    var ui = UIState()
    _ = reduce(&ui, .keyPressed(.char("d")), context: vm)
    assertSnapshot(render(vm, ui, width: 80, height: 24), named: "overlay-confirm-downgrade-80x24")
    assertSnapshot(render(vm, ui, width: 40, height: 12), named: "overlay-confirm-downgrade-40x12")
  }

  @Test func codeEntryPlacesTheCursor() {
    let vm = Scenarios.active.viewModel()
    var ui = UIState()
    for key: Key in [.char("r"), .char("S"), .char("P"), .char("R"), .char("I"), .char("N"), .char("G"), .left, .left] {
      _ = reduce(&ui, .keyPressed(key), context: vm)
    }
    let frame = render(vm, ui, width: 80, height: 24)
    assertSnapshot(frame, named: "overlay-code-80x24")
    // "Code: " starts two columns inside the box; the cursor sits before "N".
    let row = frame.lines[frame.cursor!.y]
    let prefix = String(row.prefix(frame.cursor!.x))
    #expect(prefix.hasSuffix("Code: SPRI"))
    assertSnapshot(render(vm, ui, width: 40, height: 12), named: "overlay-code-40x12")
  }

  @Test func picker() {
    let vm = Scenarios.active.viewModel()
    var ui = UIState()
    _ = reduce(&ui, .keyPressed(.char("u")), context: vm)
    _ = reduce(&ui, .keyPressed(.char("j")), context: vm)
    assertSnapshot(render(vm, ui, width: 80, height: 24), named: "overlay-picker-upgrade-80x24")
    assertSnapshot(render(vm, ui, width: 40, height: 12), named: "overlay-picker-upgrade-40x12")
    let expired = Scenarios.expiredWithWinBack.viewModel()
    var wb = UIState()
    _ = reduce(&wb, .keyPressed(.char("w")), context: expired)
    assertSnapshot(render(expired, wb, width: 80, height: 24), named: "overlay-picker-winback-80x24")
    // With a downgrade pending, the downgrade list offers the current plan (cancel the change)
    // and shows the pending plan as pending, not as "downgrade now" and a refusal.
    let pending = Scenarios.example("pending-downgrade").viewModel()
    var pd = UIState()
    _ = reduce(&pd, .keyPressed(.char("d")), context: pending)
    let screen = render(pending, pd, width: 80, height: 24)
    assertSnapshot(screen, named: "overlay-picker-pending-downgrade-80x24")
    #expect(screen.textDump.contains("Premium — keep the current plan  cancel the pending downgrade"))
    #expect(screen.textDump.contains("Individual — 4.99 USD / 1 month  already pending for"))
  }

  @Test func changedFieldsAreHighlightedUntilTheirExpiry() {
    let s = Scenarios.example("pending-downgrade")
    var highlights = ChangeHighlights()
    highlights.mark([.renewal, .pendingChange, .events], until: s.wall + .seconds(3))
    let frame = render(s.viewModel(), s.ui(highlights: highlights), width: 80, height: 24)
    assertSnapshot(frame, named: "changed-highlight-80x24")
    #expect(frame.styleDump.contains("changed"))
    let oneMsBefore = render(s.viewModel(clock: DashClock(simulated: s.now, wall: s.wall + .seconds(3) - .millisecond)), s.ui(highlights: highlights), width: 80, height: 24)
    #expect(oneMsBefore.styleDump.contains("changed"))
    let atExpiry = render(s.viewModel(clock: DashClock(simulated: s.now, wall: s.wall + .seconds(3))), s.ui(highlights: highlights), width: 80, height: 24)
    #expect(!atExpiry.styleDump.contains("changed"))
  }
}
