/// Makes strings from files safe to draw: every control character, escape sequence introducer
/// and bidirectional override becomes a visible replacement, so a product name such as
/// "Pro\u{1B}[2J" can never clear the screen or reorder the text around it.
public enum Sanitizer {
  /// Returns `text` with every unsafe scalar replaced by a visible stand-in:
  /// C0 controls become Unicode control pictures (ESC → ␛, newline → ␊), DEL → ␡,
  /// C1 controls and bidi/format controls → �.
  public static func clean(_ text: String) -> String {
    // Fast path: most strings are plain printable ASCII.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
    var out = String.UnicodeScalarView()
    for s in text.unicodeScalars {
      switch s.value {
      case 0x00...0x1F: out.append(Unicode.Scalar(0x2400 + s.value)!)
      case 0x7F: out.append("\u{2421}")
      case 0x80...0x9F: out.append("\u{FFFD}")
      case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C: out.append("\u{FFFD}")
      case 0xFFF9...0xFFFB, 0xFEFF: out.append("\u{FFFD}")
      default: out.append(s)
      }
    }
    return String(out)
  }

  /// Truncates to `width` columns, ending in "…" when anything was cut.
  public static func truncate(_ text: String, to width: Int, ellipsis: String = "…") -> String {
    guard width > 0 else { return "" }
    let clean = clean(text)
    if DisplayWidth.of(clean) <= width { return clean }
    var out = ""
    var used = 0
    let budget = width - DisplayWidth.of(ellipsis)
    for g in clean {
      let w = DisplayWidth.of(g)
      if used + w > budget { break }
      out.append(g)
      used += w
    }
    return out + ellipsis
  }

  /// Truncates to `width` columns from the front, starting with "…" when anything was cut: for
  /// paths, whose end (the file name) matters more than their start.
  public static func truncateLeading(_ text: String, to width: Int, ellipsis: String = "…") -> String {
    guard width > 0 else { return "" }
    let clean = clean(text)
    if DisplayWidth.of(clean) <= width { return clean }
    var kept: [Character] = []
    var used = 0
    let budget = width - DisplayWidth.of(ellipsis)
    for g in clean.reversed() {
      let w = DisplayWidth.of(g)
      if used + w > budget { break }
      kept.append(g)
      used += w
    }
    return ellipsis + String(kept.reversed())
  }
}

/// Terminal column widths, close to wcwidth(3) for the characters a subscription file can hold.
public enum DisplayWidth {
  public static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }

  public static func of(_ g: Character) -> Int {
    guard let first = g.unicodeScalars.first else { return 0 }
    if g.unicodeScalars.count > 1, g.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
    return width(of: first)
  }

  static func width(of s: Unicode.Scalar) -> Int {
    let v = s.value
    if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
    if v < 0x300 { return 1 }
    if s.properties.generalCategory == .nonspacingMark || s.properties.generalCategory == .enclosingMark { return 0 }
    if v == 0x200B || v == 0x200C || v == 0x200D || v == 0x2060 { return 0 }
    if isWide(v) { return 2 }
    return 1
  }

  private static func isWide(_ v: UInt32) -> Bool {
    switch v {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
         0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
         0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x1F680...0x1F6FF,
         0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return true
    default:
      return false
    }
  }
}
