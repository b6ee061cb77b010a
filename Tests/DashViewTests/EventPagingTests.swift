import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues

/// The events panel over 100,000 events of which only a page is loaded: keys move through
/// positions of the whole log and ask the runtime for the page they need; `/`, `n`, `m`, `y`
/// and `Y` become effects, never reads or writes in the reducer.
@Suite struct EventPagingTests {
  static let total = 100_000

  /// The newest page (50 of 100,000) loaded, as the dashboard opens.
  func model(offset: Int = 0) -> ViewModel {
    var vm = Scenarios.example("grace-period").viewModel()
    vm.notifications = (offset..<(offset + 50)).map { k in
      NotificationRecord(type: .didRenew, uuid: "event-\(k)", signedDate: Instant(ms: 1_800_000_000_000 - Double(k) * 60_000),
                         status: .active, summary: "renewal \(k)")
    }
    vm.eventsPage = EventsPage(offset: offset, total: Self.total)
    return vm
  }

  func laidOut(_ vm: ViewModel, rows: Int = 10) -> UIState {
    var ui = UIState()
    _ = reduce(&ui, .resized(width: 120, height: 40), context: vm)
    _ = reduce(&ui, .laidOut(ScrollExtents(eventRows: rows)), context: vm)
    return ui
  }

  @Test func capitalGAsksForTheOldestPageAndSelectsTheOldestEvent() {
    let vm = model()
    var ui = laidOut(vm)
    let effects = reduce(&ui, .keyPressed(.char("G")), context: vm)
    #expect(ui.eventSelection == Self.total - 1)
    #expect(ui.eventsTop == Self.total - 10)
    #expect(effects == [.loadEvents((Self.total - 10)..<Self.total)])
  }

  @Test func movingInsideTheLoadedPageLoadsNothingAndLeavingItLoadsTheNext() {
    let vm = model()
    var ui = laidOut(vm)
    #expect(reduce(&ui, .keyPressed(.pageDown), context: vm) == [])
    #expect(ui.eventsTop == 10)
    for _ in 0..<3 { _ = reduce(&ui, .keyPressed(.pageDown), context: vm) }
    #expect(ui.eventsTop == 40)
    #expect(reduce(&ui, .keyPressed(.pageDown), context: vm) == [.loadEvents(50..<60)])
  }

  @Test func thePanelNumbersEventsInTheWholeLog() {
    let vm = model(offset: Self.total - 50)
    var ui = laidOut(vm)
    _ = reduce(&ui, .keyPressed(.char("G")), context: vm)
    let screen = render(vm, ui, width: 120, height: 40).textDump
    #expect(screen.contains("of 100000"))
    #expect(screen.contains("renewal 99999"))
    #expect(screen.contains("Recent events (100000"))
  }

  @Test func slashTypesASearchAndEnterAsksForTheFirstMatchFromTheSelection() {
    let vm = model()
    var ui = laidOut(vm)
    _ = reduce(&ui, .keyPressed(.char("/")), context: vm)
    for c in "did_renew 2027" { _ = reduce(&ui, .keyPressed(.char(c)), context: vm) }
    let effects = reduce(&ui, .keyPressed(.enter), context: vm)
    let search = EventSearch("did_renew 2027")
    #expect(effects == [.searchEvents(search, from: -1, forward: true)])
    #expect(ui.mode == .browsing)
    // The runtime's answer moves the selection; n and m search on from there.
    let found = reduce(&ui, .eventFound(at: 70_000, search), context: vm)
    #expect(ui.eventSelection == 70_000)
    #expect(found == [.loadEvents(69_991..<70_001)])  // the selection at the page's foot
    #expect(ui.status?.message.contains("event 70001 of 100000") == true)
    #expect(reduce(&ui, .keyPressed(.char("n")), context: vm) == [.searchEvents(search, from: 70_000, forward: true)])
    #expect(reduce(&ui, .keyPressed(.char("m")), context: vm) == [.searchEvents(search, from: 70_000, forward: false)])
    _ = reduce(&ui, .eventNotFound(search), context: vm)
    #expect(ui.status == .error("no event matches \"did_renew 2027\""))
  }

  @Test func nBeforeAnySearchSaysHowToSearch() {
    let vm = model()
    var ui = laidOut(vm)
    #expect(reduce(&ui, .keyPressed(.char("n")), context: vm) == [])
    #expect(ui.status == .error("no search yet: / searches the events"))
  }

  @Test func searchMatchesEveryWordInTypeIdsSummaryOrDate() {
    var n = NotificationRecord(type: .refund, uuid: "9F1C-AB", signedDate: Instant(ms: 1_767_983_536_100), status: .expired, summary: "refunded Family")
    n.source["data"] = .object(JSONObject([("transactionId", .string("2000000123"))]))
    #expect(EventSearch("refund 2026-01-09").matches(n))
    #expect(EventSearch("9f1c").matches(n))
    #expect(EventSearch("2000000123").matches(n))
    #expect(!EventSearch("refund 2025").matches(n))
    // The journal is skipped by a word of letters only; digits may be in the derived date.
    #expect(EventSearch("refund 2026-01-09").prefilter == Array("refund".utf8))
    #expect(EventSearch("2026-01-09").prefilter == nil)
  }

  @Test func yCopiesTheSelectedEventAsOneCleanLine() throws {
    var vm = model()
    vm.notifications[0].summary = "evil\u{1B}]52;c;AAAA\u{07}\nsummary"
    var ui = laidOut(vm)
    let effects = reduce(&ui, .keyPressed(.char("y")), context: vm)
    guard case .copyToClipboard(let text)? = effects.first else { Issue.record("no copy: \(effects)"); return }
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
    #expect(text.contains("\"notificationUUID\":\"event-0\""))
    #expect(ui.status?.message.hasPrefix("copied event DID_RENEW of") == true)
    #expect(reduce(&ui, .keyPressed(.char("Y")), context: vm) == [.copyToClipboard("event-0")])
    #expect(ui.status == StatusLine("copied notificationUUID event-0 to the clipboard"))
  }
}
