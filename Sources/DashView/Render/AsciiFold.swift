/// Plain-ASCII spellings for every character SubDash itself prints (`--ascii`, LANG=C): the
/// glyphs, the separators in sentences (`3 × 1 month`, `Premium — 4.99 USD`) and the stand-ins
/// `Sanitizer` puts for control characters. Each has a readable form, so ASCII mode never shows
/// the "?" a terminal without UTF-8 would; only characters from the file that have no spelling
/// here (a product name in another script) become "?".
public enum AsciiFold {
  static let spellings: [Unicode.Scalar: String] = [
    "×": "x", "—": "-", "–": "-", "…": "...", "·": "|", "•": "*", "›": ">", "‹": "<", "»": ">>", "«": "<<",
    "●": "*", "◆": "+", "○": "o", "⚠": "!", "✖": "x", "✔": "v", "─": "-", "│": "|",
    "┌": "+", "┐": "+", "└": "+", "┘": "+", "↑": "Up", "↓": "Dn", "←": "Lt", "→": "->",
    "±": "+/-", "≥": ">=", "≤": "<=", "≠": "!=", "“": "\"", "”": "\"", "‘": "'", "’": "'",
    "\u{A0}": " ", "\u{2009}": " ", "\u{202F}": " ", "\u{FFFD}": "?", "\u{2421}": "^?",
  ]

  /// `text` with every non-ASCII character spelled in ASCII. Control characters are first made
  /// visible by `Sanitizer.clean` and then written in caret notation (ESC → `^[`).
  public static func fold(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 && $0 >= 0x20 && $0 != 0x7F }) { return text }
    var out = ""
    for s in Sanitizer.clean(text).unicodeScalars {
      if s.isASCII { out.unicodeScalars.append(s); continue }
      if (0x2400...0x241F).contains(s.value) {  // control pictures: ␛ is ESC
        out += "^" + String(Unicode.Scalar(UInt8(s.value - 0x2400 + 0x40)))
        continue
      }
      // Combining marks (an accent written as its own scalar) add nothing readable.
      if DisplayWidth.width(of: s) == 0 { continue }
      out += spellings[s] ?? "?"
    }
    return out
  }
}
