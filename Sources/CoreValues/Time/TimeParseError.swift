import FoundationEssentials

/// Why a date, duration, period or rate name could not be read.
///
/// One type for every parser in `Time/` so the CLI can print any of them the same way. The
/// message is always one line, and control characters in the input are escaped, so it is
/// safe to show in the terminal UI.
public struct TimeParseError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
  /// What was being read, e.g. "ISO 8601 duration".
  public let kind: String
  /// The text that was rejected, as given.
  public let input: String
  /// What is wrong with it, e.g. "unknown designator X (expected Y, M, W or D)".
  public let reason: String

  public init(kind: String, input: String, reason: String) {
    self.kind = kind
    self.input = input
    self.reason = reason
  }

  /// `invalid ISO 8601 duration "P1X": unknown designator X (expected Y, M, W or D)`
  public var description: String { "invalid \(kind) \"\(Self.printable(input))\": \(reason)" }

  public var errorDescription: String? { description }

  /// Escapes anything that could break a one-line message or a terminal, and caps the length.
  static func printable(_ text: String) -> String {
    let limit = 60
    var out = ""
    for (i, scalar) in text.unicodeScalars.enumerated() {
      if i == limit {
        out += "…"
        break
      }
      let printable = scalar.value >= 0x20 && scalar.value != 0x7F && scalar != "\""
        && scalar != "\\" && !scalar.properties.isDefaultIgnorableCodePoint
        && scalar.properties.generalCategory != .control
        && scalar.properties.generalCategory != .format
        && scalar.properties.generalCategory != .lineSeparator
        && scalar.properties.generalCategory != .paragraphSeparator
      out += printable ? String(scalar) : scalar.escaped(asASCII: true)
    }
    return out
  }
}
