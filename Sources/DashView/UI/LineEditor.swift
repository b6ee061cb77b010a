/// A one-line text field for offer codes: a buffer of scalars and a cursor between them.
/// Only printable characters go in, so a pasted escape sequence cannot reach the model or the screen.
public struct LineEditor: Equatable, Sendable {
  /// Longer than any App Store offer code (custom codes are up to 64 characters).
  public static let maxLength = 64

  public private(set) var scalars: [Unicode.Scalar]
  /// 0…scalars.count; the insertion point.
  public private(set) var cursor: Int

  public init(_ text: String = "") {
    scalars = Array(text.unicodeScalars.filter(LineEditor.isAccepted).prefix(LineEditor.maxLength))
    cursor = scalars.count
  }

  public var text: String { String(String.UnicodeScalarView(scalars)) }

  /// Inserts at the cursor; returns false (and changes nothing) for control characters or when full.
  @discardableResult
  public mutating func insert(_ c: Character) -> Bool {
    let new = Array(c.unicodeScalars)
    guard new.allSatisfy(LineEditor.isAccepted), scalars.count + new.count <= LineEditor.maxLength else { return false }
    scalars.insert(contentsOf: new, at: cursor)
    cursor += new.count
    return true
  }

  public mutating func backspace() {
    guard cursor > 0 else { return }
    scalars.remove(at: cursor - 1)
    cursor -= 1
  }

  public mutating func delete() {
    guard cursor < scalars.count else { return }
    scalars.remove(at: cursor)
  }

  public mutating func moveLeft() { cursor = max(0, cursor - 1) }
  public mutating func moveRight() { cursor = min(scalars.count, cursor + 1) }
  public mutating func moveHome() { cursor = 0 }
  public mutating func moveEnd() { cursor = scalars.count }

  /// The keys every line being typed shares (Backspace, Delete, ←/→, Home/Ctrl-A, End/Ctrl-E,
  /// Ctrl-U clearing the line as the list's filter does); false for any other key, which is the caller's.
  public mutating func edit(_ key: Key) -> Bool {
    switch key {
    case .backspace: backspace()
    case .delete: delete()
    case .left: moveLeft()
    case .right: moveRight()
    case .home, .ctrl("a"): moveHome()
    case .end, .ctrl("e"): moveEnd()
    case .ctrl("u"): self = LineEditor()
    default: return false
    }
    return true
  }

  /// Display columns before the cursor, for placing the terminal cursor.
  public var cursorColumn: Int {
    scalars[..<cursor].reduce(0) { $0 + DisplayWidth.width(of: $1) }
  }

  /// Printable: not a control, format (bidi) or line/paragraph separator character.
  static func isAccepted(_ s: Unicode.Scalar) -> Bool {
    switch s.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: return false
    default: return true
    }
  }
}
