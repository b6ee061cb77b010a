import Foundation
import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues
@testable import SubscriberStorage
@testable import SimulationRuns

/// The customer summary and the timeline on screen, from an example's whole history (inline
/// transactions and notifications, read as the dashboard reads them).
@Suite struct StoryRenderTests {
  static let sizes = [(80, 24), (120, 40), (200, 50)]

  static func viewModel(_ scenario: Scenario, options: DisplayOptions = DisplayOptions()) -> ViewModel {
    var vm = scenario.viewModel(options: options)
    let path = Scenarios.examples.appendingPathComponent("\(scenario.name).json").path
    vm.story = CustomerStory.derive(CustomerHistory.load(scenario.state, statePath: path), state: scenario.state, now: scenario.now)
    return vm
  }

  /// `keys` pressed from a fresh screen of `width`×`height`, as the runtime feeds them.
  static func ui(_ vm: ViewModel, width: Int, height: Int, keys: [Key]) -> UIState {
    var ui = UIState()
    _ = reduce(&ui, .resized(width: width, height: height), context: vm)
    for k in keys { _ = reduce(&ui, .keyPressed(k), context: vm) }
    return ui
  }

  @Test(arguments: ["billing-retry", "refunded", "server-api-latest-only", "active"])
  func summaryAndTimelineAtEverySize(_ name: String) {
    let vm = Self.viewModel(Scenarios.example(name))
    for (w, h) in Self.sizes {
      assertSnapshot(render(vm, Self.ui(vm, width: w, height: h, keys: []), width: w, height: h), named: "story-\(name)-\(w)x\(h)")
    }
  }

  @Test func theTimelineIsOnScreenFrom160ColumnsAndByKeyBelow() {
    let vm = Self.viewModel(Scenarios.example("billing-retry"))
    #expect(render(vm, Self.ui(vm, width: 159, height: 40, keys: []), width: 159, height: 40).textDump.contains("Timeline ") == false)
    #expect(render(vm, Self.ui(vm, width: 160, height: 40, keys: []), width: 160, height: 40).textDump.contains("Timeline "))
    let opened = Self.ui(vm, width: 80, height: 24, keys: [.char("T")])
    #expect(opened.timeline.focused && opened.timeline.opened)
    #expect(render(vm, opened, width: 80, height: 24).textDump.contains("Timeline "))
    // T again leaves it, and on a narrow screen hides it.
    let closed = Self.ui(vm, width: 80, height: 24, keys: [.char("T"), .char("T")])
    #expect(!closed.timeline.focused)
    #expect(render(vm, closed, width: 80, height: 24).textDump.contains("Timeline ") == false)
  }

  @Test func theCursorChoosesAPeriodAndShowsItsTransactionAndEvents() {
    let vm = Self.viewModel(Scenarios.example("billing-retry"))
    let periods = vm.story!.timeline.periods
    // Opened on the period `now` is in: billing retry, the last one.
    var ui = Self.ui(vm, width: 120, height: 40, keys: [.char("T")])
    #expect(ui.timeline.cursor == periods.count - 1)
    _ = reduce(&ui, .keyPressed(.left), context: vm)
    #expect(ui.timeline.cursor == periods.count - 2)
    let text = render(vm, ui, width: 120, height: 40).textDump
    #expect(text.contains("grace"))
    #expect(text.contains("transaction 2000000777273699"))
    #expect(text.contains("DID_FAIL_TO_RENEW / GRACE_PERIOD"))
    for k: Key in [.home, .left] { _ = reduce(&ui, .keyPressed(k), context: vm) }
    #expect(ui.timeline.cursor == 0)
    for k: Key in [.end, .right] { _ = reduce(&ui, .keyPressed(k), context: vm) }
    #expect(ui.timeline.cursor == periods.count - 1)
    // j/k still move through the events while the timeline has the focus.
    _ = reduce(&ui, .keyPressed(.char("j")), context: vm)
    #expect(ui.eventSelection == 1)
    _ = reduce(&ui, .keyPressed(.escape), context: vm)
    #expect(!ui.timeline.focused)
    for (w, h) in Self.sizes {
      let focused = Self.ui(vm, width: w, height: h, keys: [.char("T"), .left])
      assertSnapshot(render(vm, focused, width: w, height: h), named: "story-timeline-cursor-\(w)x\(h)")
    }
  }

  @Test func asciiAndNoColourStayReadable() {
    let scenario = Scenarios.example("billing-retry")
    let ascii = Self.viewModel(scenario, options: DisplayOptions(ascii: true))
    for (w, h) in Self.sizes {
      let ui = Self.ui(ascii, width: w, height: h, keys: [.char("T"), .left])
      let frame = render(ascii, ui, width: w, height: h)
      #expect(frame.textDump.unicodeScalars.allSatisfy { $0.isASCII }, "\(w)x\(h)")
      assertSnapshot(frame, named: "story-ascii-\(w)x\(h)")
    }
    // Without colour each kind still has its own letter or pattern in the lane and the legend.
    let plain = Self.viewModel(scenario, options: DisplayOptions(color: false))
    let frame = render(plain, Self.ui(plain, width: 200, height: 50, keys: []), width: 200, height: 50)
    assertSnapshot(frame, named: "story-no-color-200x50")
    for word in ["█ paid", "g grace", "r billing retry", "▲ now"] { #expect(frame.textDump.contains(word), "\(word)") }
    let glyphs = Timeline.Kind.allCases.map { TimelinePanel.look($0) }
    #expect(Set(glyphs.map(\.unicode)).count == glyphs.count)
    #expect(Set(glyphs.map(\.ascii)).count == glyphs.count)
  }

  @Test func theLaneScalesFromHoursToYears() {
    let t0 = Instant(ms: 1_767_225_600_000)  // 2026-01-01
    func timeline(_ span: Span) -> Timeline {
      Timeline(periods: [Timeline.Period(kind: .paid, start: t0, end: t0 + span, productId: "p")], marks: [], now: t0 + span / 2)
    }
    #expect(TimelinePanel.day(t0, .hours(10)).contains(":"))
    #expect(TimelinePanel.day(t0, .days(60)) == "2026-01-01")
    #expect(TimelinePanel.day(t0, .days(2000)) == "2026-01")
    for span in [Span.hours(6), .days(30), .days(3650)] {
      let t = timeline(span)
      let cols = TimelinePanel.columns(t, width: 100, range: t.range!)
      #expect(cols.allSatisfy { $0?.kind == .paid }, "\(span)")
    }
    // A day of billing retry in ten years of paid time still shows.
    let long = Timeline(periods: [
      Timeline.Period(kind: .paid, start: t0, end: t0 + .days(1800)),
      Timeline.Period(kind: .billingRetry, start: t0 + .days(1800), end: t0 + .days(1801)),
      Timeline.Period(kind: .paid, start: t0 + .days(1801), end: t0 + .days(3650)),
    ], marks: [], now: t0 + .days(3650))
    #expect(TimelinePanel.columns(long, width: 100, range: long.range!).contains { $0?.kind == .billingRetry })
  }

  @Test func showPrintsTheSummaryAndTheTimeline() {
    let vm = Self.viewModel(Scenarios.example("refunded"))
    let lines = PlainReport.lines(vm)
    #expect(lines.contains("== Customer =="))
    #expect(lines.contains("refunded 119.99 USD"))
    #expect(lines.contains { $0.hasPrefix("== Timeline ") })
    #expect(lines.contains { $0.hasPrefix("refunded/revoked ") })
    #expect(PlainReport.lines(vm, ascii: true).allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
  }
}
