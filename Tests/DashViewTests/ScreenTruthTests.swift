import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues

/// The runtime's order of things, without a terminal: each action goes to `reduce`, a frame is
/// drawn at the screen's size and its extents go back as `.laidOut`.
private struct Screen {
  var vm: ViewModel
  var ui = UIState()
  var frame: Frame

  init(_ vm: ViewModel, width: Int = 80, height: Int = 24) {
    self.vm = vm
    frame = Frame(width: 0, height: 0)
    _ = send(.resized(width: width, height: height))
  }

  @discardableResult
  mutating func send(_ action: UIAction) -> [UIEffect] {
    let effects = reduce(&ui, action, context: vm)
    let size = ui.screen ?? ScreenSize(width: 80, height: 24)
    frame = render(vm, ui, width: size.width, height: size.height)
    if frame.extents != ui.extents { _ = reduce(&ui, .laidOut(frame.extents), context: vm) }
    return effects
  }

  @discardableResult
  mutating func press(_ keys: Key...) -> [UIEffect] { keys.flatMap { send(.keyPressed($0)) } }

  var eventsTitle: String { frame.lines.first { $0.contains("Recent events") } ?? "" }
}

@Suite struct PagingTests {
  /// price-increase.json at 80x24 shows three events: PgDn shows 4-6, then 7-9 (7 and 8 were
  /// skipped when a page was five events), then the last page ends at the oldest.
  @Test func pageDownShowsEveryEventOnce() {
    var s = Screen(Scenarios.example("price-increase").viewModel())
    #expect(s.eventsTitle.contains("1-3 of 12"))
    var seen: [String] = []
    for _ in 0..<4 {
      seen.append(String(s.eventsTitle.split(separator: " ")[4]))
      s.press(.pageDown)
    }
    #expect(seen == ["1-3", "4-6", "7-9", "10-12"])
    #expect(s.eventsTitle.contains("10-12 of 12"))
    s.press(.pageUp)
    #expect(s.eventsTitle.contains("7-9 of 12"))
  }

  /// expired-voluntary.json at 80x24 shows two events at a time (the plans panel says "no plan
  /// change" once): PgDn steps two, not five.
  @Test func aSmallPanelPagesByWhatItShows() {
    var s = Screen(Scenarios.expiredWithWinBack.viewModel())
    #expect(s.eventsTitle.contains("1-2 of 11"))
    s.press(.pageDown)
    #expect(s.eventsTitle.contains("3-4 of 11"))
    #expect(s.ui.eventSelection == 2)
  }
}

@Suite struct FileErrorKeyTests {
  static let error = "active.json:3:9: invalid JSON: expected a value"

  /// u, d, c, r, a and the simulation keys are refused at the key while the file does not
  /// read, with the reason, and leave the key bar; no picker or confirmation opens.
  @Test(arguments: ["u", "d", "c", "r", "a", ">", "f"])
  func changingKeysAreRefusedAtTheKey(_ key: String) {
    var s = Screen(Scenarios.active.viewModel())
    s.send(.fileFailed(Self.error))
    let effects = s.press(.char(Character(key)))
    #expect(effects == [])
    #expect(s.ui.mode == .browsing)
    #expect(s.ui.status?.isError == true)
    #expect(s.ui.status?.message.hasPrefix("FILE ERROR: ") == true)
    #expect(s.ui.status?.message.contains(Self.error) == true)
    let footer = s.frame.lines[22]
    #expect(footer == "? help  q quit")
  }

  @Test func anOpenPickerClosesWhenTheFileBreaks() {
    var s = Screen(Scenarios.active.viewModel())
    s.press(.char("u"))
    guard case .picking = s.ui.mode else { Issue.record("no picker"); return }
    s.send(.fileFailed(Self.error))
    #expect(s.ui.mode == .browsing)
  }

  /// After the file reads again, the banner and the stale error message are gone.
  @Test func theErrorMessageClearsWithTheError() {
    var s = Screen(Scenarios.active.viewModel())
    s.send(.fileFailed(Self.error))
    s.press(.char("u"))
    #expect(s.frame.textDump.contains("FILE ERROR"))
    s.send(.fileReloaded(changed: []))
    #expect(s.ui.fileError == nil)
    #expect(!s.frame.textDump.contains(Self.error))
    #expect(s.ui.status == StatusLine("active.json reads again; its keys are back"))
    #expect(s.frame.lines[22].hasPrefix("? help  u upgrade"))
  }
}

@Suite struct TooSmallScreenTests {
  /// `a`, the terminal shrinks to 30x10 (the confirmation is hidden), `y`: nothing happens. Back
  /// at 80x24 the confirmation is still there and `y` applies it.
  @Test func aHiddenConfirmationDoesNotAct() {
    var s = Screen(Scenarios.active.viewModel())
    s.press(.char("a"))
    guard case .confirming = s.ui.mode else { Issue.record("no confirmation"); return }
    s.send(.resized(width: 30, height: 10))
    #expect(s.frame.lines[0].hasPrefix("Terminal too small"))
    #expect(s.press(.char("y")) == [])
    guard case .confirming = s.ui.mode else { Issue.record("the hidden confirmation changed"); return }
    s.send(.resized(width: 80, height: 24))
    #expect(s.press(.char("y")) == [.perform(.setAutoRenew(false))])
  }

  @Test func qStillQuitsAndOtherKeysWait() {
    var s = Screen(Scenarios.active.viewModel(), width: 30, height: 10)
    #expect(s.press(.char("u")) == [])
    #expect(s.ui.mode == .browsing)
    #expect(s.press(.char("q")) == [.quit])
  }
}

@Suite struct MessageLogTests {
  /// A message cut at the width is whole under `?`, newest first.
  @Test func helpListsTheLastMessagesWhole() {
    var s = Screen(Scenarios.active.viewModel(), width: 40, height: 12)
    s.send(.actionFailed("first message"))
    let long = "a long message that cannot fit on one row of a forty-column terminal, with its end"
    s.send(.actionSucceeded(long))
    #expect(!s.frame.textDump.contains("with its end"))
    let lines = Overlays.helpLines(s.vm, s.ui, ascii: false).map(\.text)
    let at = lines.firstIndex(of: "Messages (newest first)")
    #expect(at != nil)
    if let at {
      let text = lines[(at + 1)...].joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
      #expect(text.contains(long))
      #expect(lines.last == "✖ first message")
    }
  }
}
