/// Semantic styles: the renderer says what a cell *means*; the terminal backend decides colours.
/// Meaning never rides on colour alone (banners always carry a glyph and words), so `--no-color`
/// loses nothing but hue.
public enum Role: String, Sendable, CaseIterable, Hashable {
  case plain, title, label, value, dim, ok, warn, danger, accent, keyHint, selection, changed, border, badge
}

public struct Style: Hashable, Sendable {
  public var role: Role
  public var bold: Bool
  public var reverse: Bool

  public init(_ role: Role = .plain, bold: Bool = false, reverse: Bool = false) {
    self.role = role
    self.bold = bold
    self.reverse = reverse
  }

  public static let plain = Style()

  /// Short tag used in style dumps, e.g. `warn+b`.
  public var tag: String {
    var s = role.rawValue
    if bold { s += "+b" }
    if reverse { s += "+r" }
    return s
  }
}
