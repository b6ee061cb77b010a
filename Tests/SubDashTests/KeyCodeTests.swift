import CNcurses
import Testing
@testable import DashRuntime
@testable import SubDash

@Suite struct KeyCodeTests {
  @Test func keypadCodesMapToKeys() {
    #expect(Terminal.key(forKeyCode: KEY_UP) == .up)
    #expect(Terminal.key(forKeyCode: KEY_NPAGE) == .pageDown)
    #expect(Terminal.key(forKeyCode: KEY_BACKSPACE) == .backspace)
    #expect(Terminal.key(forKeyCode: KEY_DC) == .delete)
    #expect(Terminal.key(forKeyCode: KEY_ENTER) == .enter)
    #expect(Terminal.key(forKeyCode: KEY_BTAB) == .backTab)
    #expect(Terminal.key(forKeyCode: KEY_RESIZE) == .resize)
    #expect(Terminal.key(forKeyCode: KEY_F0 + 1) == .function(1))
    #expect(Terminal.key(forKeyCode: KEY_F0 + 12) == .function(12))
    #expect(Terminal.key(forKeyCode: KEY_MOUSE) == .unknown(KEY_MOUSE))
  }
}
