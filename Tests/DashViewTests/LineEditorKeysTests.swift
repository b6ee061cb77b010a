import Testing
@testable import DashView

/// The editing keys a code and an event search share: one place, so both fields behave alike.
@Suite struct LineEditorKeysTests {
  @Test func theSharedKeysEditAndMoveAndOthersAreLeftToTheField() {
    var editor = LineEditor("SPRNG")
    var handled: [Bool] = []
    func press(_ keys: Key...) { for key in keys { handled.append(editor.edit(key)) } }
    press(.home)
    #expect(editor.cursor == 0)
    press(.end, .left, .left)
    _ = editor.insert("I")
    #expect(editor.text == "SPRING")
    press(.ctrl("a"), .delete)
    #expect(editor.text == "PRING")
    press(.ctrl("e"), .backspace, .right)
    #expect(editor.text == "PRIN" && editor.cursor == 4)
    #expect(handled.allSatisfy { $0 })
    handled = []
    press(.enter, .escape, .char("x"))
    #expect(handled == [false, false, false], "the field's own keys")
    #expect(editor.text == "PRIN")
  }
}
