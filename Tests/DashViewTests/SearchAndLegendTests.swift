import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues

/// `/` as a new user types it, and the timeline's legend as they read it.
@Suite struct SearchAndLegendTests {
  func browsing(_ vm: ViewModel) -> UIState {
    var ui = UIState()
    _ = reduce(&ui, .resized(width: 120, height: 40), context: vm)
    return ui
  }

  func typed(_ ui: UIState) -> String? {
    if case .searchingEvents(let editor) = ui.mode { return editor.text }
    return nil
  }

  @Test func slashStartsEmptyAndCtrlUClearsWhatWasTyped() {
    let vm = Scenarios.grace.viewModel()
    var ui = browsing(vm)
    _ = reduce(&ui, .keyPressed(.char("/")), context: vm)
    for c in "did_renew" { _ = reduce(&ui, .keyPressed(.char(c)), context: vm) }
    _ = reduce(&ui, .keyPressed(.enter), context: vm)
    #expect(ui.eventSearch?.text == "did_renew")
    // The next search starts from nothing, not from the last one.
    _ = reduce(&ui, .keyPressed(.char("/")), context: vm)
    #expect(typed(ui) == "")
    for c in "grace pe" { _ = reduce(&ui, .keyPressed(.char(c)), context: vm) }
    #expect(typed(ui) == "grace pe")
    _ = reduce(&ui, .keyPressed(.ctrl("u")), context: vm)
    #expect(typed(ui) == "")
    // The last search still repeats with n until Enter replaces it.
    _ = reduce(&ui, .keyPressed(.escape), context: vm)
    #expect(ui.eventSearch?.text == "did_renew")
  }

  @Test func aDateMatchesAsTheScreenShowsItAndInISOForm() throws {
    // Examples/grace-period.json's renewal of Mar 10 06:00, as the events panel lists it.
    let vm = Scenarios.grace.viewModel()
    let screen = render(vm, browsing(vm), width: 120, height: 40).textDump
    #expect(screen.contains("Mar 10 06:00  DID_RENEW"))
    let march = try #require(vm.notifications.first { $0.signedDate.map { Format.date($0).hasPrefix("2026-03-10") } == true })
    let april = try #require(vm.notifications.first { $0.signedDate.map { Format.date($0).hasPrefix("2026-04-10") } == true })
    for typed in ["Mar 10", "mar 10 06:00", "2026-03-10", "did_renew Mar 10", "2026-03-10 06:00"] {
      #expect(EventSearch(typed).matches(march), "\(typed)")
      #expect(!EventSearch(typed).matches(april), "\(typed)")
    }
    // A day typed without padding is the day the screen pads.
    #expect(EventSearch("Apr 9").matches(march) == false)
    var ninth = march
    ninth.signedDate = try Format.parseDate("2026-04-09T06:00:00Z")
    #expect(EventSearch("Apr 9").matches(ninth))
    // A month's letters may be in the derived date only: the journal is not skipped by them.
    #expect(EventSearch("mar").prefilter == nil)
    #expect(EventSearch("did_renew mar 10").prefilter == Array("did_renew".utf8))
  }

  @Test func theLegendListsOnlyTheMarksTheTimelineShows() throws {
    // billing-retry's lane with a refund asked and a price change far outside it: neither is
    // drawn, so neither is explained. A plan change inside it is both.
    let scenario = Scenarios.example("billing-retry")
    var vm = StoryRenderTests.viewModel(scenario)
    var story = try #require(vm.story)
    let range = try #require(story.timeline.range)
    let inside = range.lowerBound + (range.upperBound - range.lowerBound) * 0.5
    story.timeline.marks = [
      Timeline.Mark(kind: .planChange, at: inside, productId: nil, text: "changed"),
      Timeline.Mark(kind: .refundRequest, at: range.upperBound + .days(400), productId: nil, text: "asked"),
      Timeline.Mark(kind: .priceChange, at: range.lowerBound - .days(400), productId: nil, text: "price"),
    ]
    vm.story = story
    let (_, lines) = TimelinePanel.lines(vm, UIState(), width: 100, ascii: false, glyphs: .unicode, focused: false)
    let legend = try #require(lines.last?.text)
    #expect(legend.contains("c plan change"), "\(legend)")
    #expect(!legend.contains("refund asked") && !legend.contains("$ price"), "\(legend)")
    // A moment under today's mark is hidden by it, and so leaves the legend.
    story.timeline.marks = [Timeline.Mark(kind: .refund, at: story.timeline.now, productId: nil, text: "refund")]
    vm.story = story
    let hidden = TimelinePanel.lines(vm, UIState(), width: 100, ascii: false, glyphs: .unicode, focused: false).lines
    #expect(hidden.last?.text.contains("F refund") == false, "\(hidden.last?.text ?? "")")
  }
}
