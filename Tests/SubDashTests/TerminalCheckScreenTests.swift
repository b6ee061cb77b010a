import DashView
import Testing
@testable import DashRuntime
@testable import SubDash

@Suite struct TerminalCheckScreenTests {
  func state(tick: Bool = false) -> CheckState {
    var s = CheckState(file: "/tmp/state.json", tickEnabled: tick, crashEnabled: true, unicode: true)
    s.firstLine = "{\"plan\":\"Pro\u{1B}[2J\"}"
    s.watchMode = "inotify"
    s.terminalInfo = "xterm 40x9"
    return s
  }

  @Test func rendersABoxWithSanitizedContent() {
    let f = state().render(size: (40, 9))
    #expect(f.lines[0] == "┌─ SubDash terminal check ─────────────┐")
    #expect(f.lines[2] == "│ first line: {\"plan\":\"Pro␛[2J\"}       │")
    #expect(f.lines[3].hasPrefix("│ reloaded 0   watch: inotify"))
    #expect(f.lines[8].hasPrefix("└─ q quit · Ctrl-L redraw · Ctrl-Z sus"))
    #expect(f.lines.allSatisfy { $0.count == 40 })
    #expect(f.cursor?.x == 2 + "last key: (none yet)".count)
    #expect(f.cursor?.y == 4)
  }

  @Test func tooSmallTerminalsGetAMessageNotACrash() {
    #expect(state().render(size: (10, 2)).lines[0] == "too small")  // lines trims trailing blanks
    #expect(state().render(size: (10, 2)).cursor == nil)
    #expect(state().render(size: (0, 0)).lines == [])
  }

  @Test func debouncesReloadsAndCountsDown() {
    var s = state(tick: true)
    s.nextSecond = 1000
    #expect(s.msUntilNextDeadline(now: 0) == 1000)
    s.reloadDue = 50
    #expect(s.msUntilNextDeadline(now: 0) == 50)
    s.advance(now: 49)
    #expect(s.reloads == 0)
    s.advance(now: 50)
    #expect(s.reloads == 1)
    #expect(s.reloadDue == nil)
    s.advance(now: 2500)                // two seconds passed at once: both counted
    #expect(s.countdown == 8)
    #expect(s.msUntilNextDeadline(now: 2500) == 500)
  }

  @Test func withoutTickNothingIsScheduled() {
    #expect(state().msUntilNextDeadline(now: 0) == nil)
  }

  @Test func firstLineOfMissingFileSaysWhy() {
    #expect(FirstLine.read("/nonexistent/x") == "(cannot read: No such file or directory)")
    let dir = TempDir()
    dir.write("a", "")
    #expect(FirstLine.read(dir.file("a")) == "(empty file)")
    dir.write("b", "one\ntwo\n")
    #expect(FirstLine.read(dir.file("b")) == "one")
  }
}
