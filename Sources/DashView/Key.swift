/// A key press, independent of ncurses: the terminal backend translates raw codes into this,
/// and everything above it (key maps, reducers, tests) matches on these cases only.
///
/// Conventions:
/// - `.ctrl` carries the *lowercase* letter (`.ctrl("l")` is Ctrl-L) or the punctuation that names
///   the control code (`.ctrl("\\")` is Ctrl-\). Ctrl-H, Ctrl-I, Ctrl-J, Ctrl-M and Ctrl-[ are
///   indistinguishable from Backspace, Tab, Enter and Esc on a terminal, so they arrive as those.
/// - `.resize` is delivered as a key because ncurses reports it through its input queue.
public enum Key: Hashable, Sendable {
  case char(Character)
  case up, down, left, right
  case home, end, pageUp, pageDown
  case enter, escape, backspace, delete, tab, backTab
  case resize
  case ctrl(Character)
  case function(Int)
  case unknown(Int32)

  /// Maps one input scalar (not a keypad code) to a key: control codes get names,
  /// everything else is a character. Pure, so the table is unit-tested without a terminal.
  public init(scalar value: UInt32) {
    switch value {
    case 8, 127: self = .backspace          // ^H and DEL: terminals disagree on which Backspace sends
    case 9: self = .tab
    case 10, 13: self = .enter              // \r after nonl(), \n from some pastes and terminals
    case 27: self = .escape
    case 0: self = .ctrl("@")
    case 1...26: self = .ctrl(Character(Unicode.Scalar(UInt8(value) + 0x60)))  // 1 → "a"
    case 28: self = .ctrl("\\")
    case 29: self = .ctrl("]")
    case 30: self = .ctrl("^")
    case 31: self = .ctrl("_")
    default:
      if let scalar = Unicode.Scalar(value) {
        self = .char(Character(scalar))
      } else {
        self = .unknown(Int32(bitPattern: value))
      }
    }
  }
}

extension Key: CustomStringConvertible {
  /// Human-readable name, as shown in key hints and diagnostics: "Up", "Ctrl-L", "F5", "a".
  public var description: String {
    switch self {
    case .char(" "): return "Space"
    case .char(let c): return Sanitizer.clean(String(c))
    case .up: return "Up"
    case .down: return "Down"
    case .left: return "Left"
    case .right: return "Right"
    case .home: return "Home"
    case .end: return "End"
    case .pageUp: return "PgUp"
    case .pageDown: return "PgDn"
    case .enter: return "Enter"
    case .escape: return "Esc"
    case .backspace: return "Backspace"
    case .delete: return "Delete"
    case .tab: return "Tab"
    case .backTab: return "Shift-Tab"
    case .resize: return "Resize"
    case .ctrl(let c): return "Ctrl-" + String(c).uppercased()
    case .function(let n): return "F\(n)"
    case .unknown(let code): return "Key(\(code))"
    }
  }
}
