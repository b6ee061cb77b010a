import Testing
@testable import DashView

@Suite struct FrameTests {
  @Test func putClipsToWidthAndTrimsTrailingBlanks() {
    var f = Frame(width: 6, height: 2)
    f.put("Hello, world", x: 1, y: 0)
    #expect(f.lines == [" Hello", ""])
  }

  @Test func escapeSequencesFromFilesAreShownNotSent() {
    var f = Frame(width: 12, height: 1)
    f.put("Pro\u{1B}[2J", x: 0, y: 0)
    #expect(f.lines == ["Pro␛[2J"])
  }

  @Test func wideCharactersTakeTwoColumns() {
    var f = Frame(width: 5, height: 1)
    #expect(f.put("日本語", x: 0, y: 0) == 4)
    #expect(f.lines == ["日本"])
  }

  @Test func truncationAddsEllipsis() {
    #expect(Sanitizer.truncate("Premium Monthly", to: 8) == "Premium…")
    #expect(Sanitizer.truncate("Pro", to: 8) == "Pro")
  }

  @Test func styleDumpListsRunsThatAreNotPlain() {
    var f = Frame(width: 10, height: 1)
    f.put("WARN", x: 2, y: 0, style: Style(.warn, bold: true))
    #expect(f.styleDump == "0 2-5 warn+b\n")
  }
}
