import Testing
@testable import DashView

@Suite struct KeyTests {
  @Test func controlCodesHaveNames() {
    #expect(Key(scalar: 8) == .backspace)
    #expect(Key(scalar: 127) == .backspace)
    #expect(Key(scalar: 9) == .tab)
    #expect(Key(scalar: 10) == .enter)
    #expect(Key(scalar: 13) == .enter)
    #expect(Key(scalar: 27) == .escape)
    #expect(Key(scalar: 12) == .ctrl("l"))
    #expect(Key(scalar: 1) == .ctrl("a"))
    #expect(Key(scalar: 26) == .ctrl("z"))
    #expect(Key(scalar: 0) == .ctrl("@"))
    #expect(Key(scalar: 28) == .ctrl("\\"))
    #expect(Key(scalar: 31) == .ctrl("_"))
  }

  @Test func printableScalarsAreCharacters() {
    #expect(Key(scalar: 0x71) == .char("q"))
    #expect(Key(scalar: 0x20AC) == .char("€"))
    #expect(Key(scalar: 0x1F600) == .char("😀"))
  }

  @Test func invalidScalarsAreUnknown() {
    #expect(Key(scalar: 0xD800) == .unknown(0xD800))  // a lone surrogate is not a character
    #expect(Key(scalar: 0x110000) == .unknown(0x110000))
  }

  @Test func descriptionsAreReadable() {
    #expect(Key.ctrl("l").description == "Ctrl-L")
    #expect(Key.function(5).description == "F5")
    #expect(Key.char(" ").description == "Space")
    #expect(Key.backTab.description == "Shift-Tab")
    #expect(Key.char("\u{1B}").description == "␛")  // never send a raw control to the screen
  }
}
