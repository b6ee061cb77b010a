import DashModel
import DashView
import Foundation
import Testing

@testable import DashRuntime
import CoreValues
import SubscriberStorage

/// The whole history within reach: on a file whose journal holds thousands of events, `G` shows
/// the very first one (not the 50th newest), `/` finds an event anywhere in it, and `y` / `Y`
/// copy the selected event. Real file, real journal, the real session and loop.
@Suite(.serialized, .timeLimit(.minutes(1))) struct DashboardHistoryTests {
  let wall = Instant(ms: 1_800_000_000_000)
  static let events = 3_000

  /// Examples/active.json with `events` more notifications appended to its journal (the oldest
  /// first), each numbered in its UUID and summary.
  func fileWithLongHistory() throws -> String {
    let path = try DashboardSessionTests().copyOfExample("active") { _ in }
    try StateFile.update(path: path) { state in
      // After the example's own five notifications (the inline log), before its clock.
      let start = Instant(ms: 1_777_000_000_000)
      let log = (0..<Self.events).map { k in
        NotificationRecord(type: .didRenew, uuid: "history-\(k)", signedDate: start + Span(ms: Double(k) * 60_000), status: .active,
                           summary: k == 1234 ? "the needle renewal" : "renewal number \(k)")
      }
      return Change(state: state, notifications: log, message: "history")
    }
    return path
  }

  func run(_ path: String, keys: String) throws -> FakeScreen {
    let session = try DashboardSession(path: path, displayName: "state.json", options: DisplayOptions(), nowOverride: nil, retryAccess: nil)
    let screen = FakeScreen(keys: keys)
    screen.size = (120, 40)
    var app = DashboardApp(session: session, colorWanted: false)
    // The fake screen is the terminal itself: a tmux the tests happen to run in is not in the way.
    app.clipboardRoute = { .terminal }
    #expect(app.loop(on: screen, signals: nil, follower: DashboardApp.follower(of: path), ttyFD: screen.pipe.readFD, clock: { wall }) == 0)
    return screen
  }

  @Test func capitalGGoesToTheOldestEventOfTheWholeHistory() throws {
    let path = try fileWithLongHistory()
    let screen = try run(path, keys: "Gq")
    // Opening shows the newest; G the oldest of all 3,005: the example's first notification,
    // below the journal's first (history-0).
    #expect(screen.frames[0].textDump.contains("renewal number 2999"))
    let text = screen.last.textDump
    #expect(text.contains("-3005 of 3005"))
    #expect(text.contains("renewal number 0"))
    #expect(text.contains("SUBSCRIBED"))
    #expect(!text.contains("renewal number 2999"))
  }

  @Test func slashFindsAnEventAnywhereAndYCopiesIt() throws {
    let path = try fileWithLongHistory()
    let screen = try run(path, keys: "/needle\ryYq")
    let text = screen.last.textDump
    #expect(text.contains("the needle renewal"))
    #expect(screen.frames.contains { $0.lines[39].contains("\"needle\": event 1766 of 3005") })
    #expect(screen.last.lines[39] == "copied notificationUUID history-1234 to the clipboard")
    #expect(screen.copied.count == 2)
    #expect(screen.copied.first?.contains("\"notificationUUID\":\"history-1234\"") == true)
    #expect(screen.copied.last == "history-1234")
  }

  @Test func nAndMStepThroughTheMatchesAndAMissIsSaid() throws {
    let path = try fileWithLongHistory()
    let screen = try run(path, keys: "/history-12\rnmq")
    // From the newest, the first older match is history-1299 (position 1701), n the next older
    // (history-1298), m back to the newer one.
    let statuses = screen.frames.map { $0.lines[39] }
    #expect(statuses.contains { $0.contains("\"history-12\": event 1701 of 3005") })
    #expect(statuses.contains { $0.contains("\"history-12\": event 1702 of 3005") })
    #expect(screen.last.lines[39].contains("event 1701 of 3005"))
    let missed = try run(path, keys: "/no-such-event\rq")
    #expect(missed.last.textDump.contains("no event matches \"no-such-event\""))
  }

  /// The bytes `y` sends: OSC 52 with standard, padded base64, control characters dropped first,
  /// ended by BEL, as xterm documents it.
  @Test func theClipboardSequenceIsOSC52() {
    #expect(Terminal.clipboardSequence("hi\u{07}é") == [0x1B] + Array("]52;c;aGnDqQ==".utf8) + [0x07])
    #expect(Terminal.clipboardSequence("ab") == [0x1B] + Array("]52;c;YWI=".utf8) + [0x07])
    #expect(Terminal.clipboardSequence("abc\u{1B}[2J") == [0x1B] + Array("]52;c;YWJjWzJK".utf8) + [0x07])
  }
}
