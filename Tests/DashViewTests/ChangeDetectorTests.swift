import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues

@Suite struct ChangeDetectorTests {
  @Test func sameStateLaterIsNotAChangeEvenThoughCountdownsMoved() {
    let grace = Scenarios.grace
    let later = grace.with(elapsed: .minutes(1))
    #expect(grace.report.grace?.remaining != later.report.grace?.remaining)
    #expect(ChangeDetector.diff(old: grace.viewModel(), new: later.viewModel()) == [])
  }

  @Test func turningAutoRenewOffChangesTheRenewalOutlook() {
    let active = Scenarios.active
    let off = active.with { $0.subscriber.renewalInfo?.autoRenewStatus = .off }
    let changed = ChangeDetector.diff(old: active.report, new: off.report)
    #expect(changed.contains(.renewal))
    #expect(!changed.contains(.product))
    #expect(!changed.contains(.environment))
  }

  @Test func aNewNotificationMarksTheEventLog() {
    let active = Scenarios.active
    let more = active.with { s in
      s.subscriber.notifications.append(NotificationRecord(type: .didRenew, uuid: "x", signedDate: active.now, status: .active))
    }
    #expect(ChangeDetector.diff(old: active.viewModel(), new: more.viewModel()) == [.events])
  }

  @Test func highlightsLastUntilTheirExpiryToTheMillisecond() {
    let t = Instant(ms: 1_000_000)
    var h = ChangeHighlights()
    h.mark([.renewal], until: t)
    #expect(h.isHighlighted(.renewal, at: t - .millisecond))
    #expect(!h.isHighlighted(.renewal, at: t))
    #expect(!h.isHighlighted(.access, at: t - .millisecond))
    h.mark([.renewal], until: t - .seconds(1))
    #expect(h.until[.renewal] == t, "a later mark never shortens a highlight")
    h.prune(at: t)
    #expect(h.until.isEmpty)
  }
}

@Suite struct LineEditorTests {
  @Test func cursorColumnCountsWideCharactersTwice() {
    var e = LineEditor("コード")
    #expect(e.cursor == 3)
    #expect(e.cursorColumn == 6)
    e.moveLeft()
    #expect(e.cursorColumn == 4)
    e.moveHome()
    e.moveLeft()
    #expect(e.cursor == 0)
    e.moveEnd()
    e.moveRight()
    #expect(e.cursor == 3)
  }

  @Test func initialTextIsFilteredAndCapped() {
    let e = LineEditor("AB\u{1B}[2J" + String(repeating: "x", count: 100))
    #expect(e.text.hasPrefix("AB[2J"))
    #expect(e.scalars.count == LineEditor.maxLength)
  }

  @Test func backspaceAndDeleteAtTheEdgesDoNothing() {
    var e = LineEditor("A")
    e.delete()
    #expect(e.text == "A")
    e.moveHome()
    e.backspace()
    #expect(e.text == "A")
  }
}

@Suite struct KeyMapTests {
  @Test func everyKeyHasOneMeaningWhileBrowsing() {
    let keys = (KeyMap.browsing + KeyMap.simulation).flatMap(\.keys)
    #expect(Set(keys).count == keys.count)
  }

  @Test func everyBindingDispatchesToItsOwnCommand() {
    for b in KeyMap.browsing + KeyMap.simulation {
      for key in b.keys { #expect(KeyMap.command(for: key) == b.command, "\(key)") }
    }
  }

  @Test func everyFooterHintIsABindingThatWorksNow() {
    let vm = Scenarios.active.viewModel()
    for hint in FooterPanel.hints(vm, UIState(), glyphs: .unicode, ascii: false) {
      let binding = (KeyMap.browsing + KeyMap.simulation).first { $0.label == hint.key }
      #expect(binding != nil, "\(hint.key)")
      if let binding { #expect(Availability.of(binding.command, in: vm, UIState()) == .available) }
    }
  }

  @Test func helpListsEverySimulationKeyOnlyOnTestData() {
    let sandbox = Overlays.helpLines(Scenarios.active.viewModel(), UIState(), ascii: false).map(\.text)
    for b in KeyMap.simulation {
      if b.help.isEmpty {
        // A key without a row of its own is named in its pair's row ("…; D declines"), as k is in j/k.
        #expect(sandbox.contains { $0.contains("; \(b.label) ") }, "\(b.label)")
      } else {
        #expect(sandbox.contains { $0.hasPrefix(b.label + " ") && $0.contains(b.help) }, "\(b.label)")
      }
    }
    let production = Overlays.helpLines(Scenarios.production.viewModel(), UIState(), ascii: false).map(\.text)
    #expect(production.contains("disabled: this file holds Production data"))
    #expect(!production.contains { $0.contains(KeyMap.simulation[0].help) })
  }

  /// Support staff meet the summary line and the timeline lane before any key: `?` says what
  /// they show, on test and Production data alike.
  @Test func helpDescribesTheSummaryAndTheTimeline() {
    for vm in [Scenarios.active.viewModel(), Scenarios.production.viewModel()] {
      let help = Overlays.helpLines(vm, UIState(), ascii: false).map(\.text)
      #expect(help.contains("On screen"))
      #expect(help.contains { $0.hasPrefix("summary") && $0.contains("spent/refunded/net per currency") })
      #expect(help.contains { $0.hasPrefix("timeline") && $0.contains("grace, retry, lapsed, revoked") })
      #expect(help.joined(separator: " ").contains("T opens it"))
    }
  }

  /// Scrolling pages by what the drawn box showed (`.laidOut`) and stops with the last line at
  /// the bottom of the box.
  @Test func helpScrollingStopsAtTheLastLine() {
    let vm = Scenarios.active.viewModel()
    var ui = UIState(mode: .help(offset: 0))
    let lines = Overlays.helpLines(vm, ui, ascii: false)
    _ = reduce(&ui, .laidOut(render(vm, ui, width: 40, height: 12).extents), context: vm)
    #expect(ui.extents.overlayLines == lines.count && ui.extents.overlayRows == 8)
    _ = reduce(&ui, .keyPressed(.pageDown), context: vm)
    #expect(ui.mode == .help(offset: 8))
    for _ in 0..<200 { _ = reduce(&ui, .keyPressed(.pageDown), context: vm) }
    #expect(ui.mode == .help(offset: lines.count - 8))
    let last = render(vm, ui, width: 80, height: 24).lines.joined(separator: "\n")
    #expect(last.contains(lines.last!.text.prefix(30)))
  }
}

@Suite struct HighlightExpiryTests {
  @Test func nextExpiryIsTheSoonestHighlightStillShowing() {
    let t = Instant(ms: 5_000_000)
    var h = ChangeHighlights()
    #expect(h.nextExpiry(after: t) == nil)
    h.mark([.renewal], until: t + .seconds(4))
    h.mark([.access], until: t + .seconds(2))
    #expect(h.nextExpiry(after: t) == t + .seconds(2))
    #expect(h.nextExpiry(after: t + .seconds(2)) == t + .seconds(4))
    #expect(h.nextExpiry(after: t + .seconds(4)) == nil)
  }
}
