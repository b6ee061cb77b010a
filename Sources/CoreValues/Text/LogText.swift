/// Untrusted text on its way to a log line or an HTTP answer: printable ASCII only (no escape
/// sequences, no line breaks), clipped, so a hostile payload cannot drive the reader's terminal.
public enum LogText {
  public static func clip(_ s: String, limit: Int = 60) -> String {
    let printable = String(s.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.map(Character.init))
    return printable.count > limit ? String(printable.prefix(limit)) + "…" : printable
  }

  /// A quoted value in a message about an input: control characters out, letters of every script
  /// kept (a product id in Japanese stays readable), clipped to `limit` characters.
  public static func clipKeepingLetters(_ s: String, limit: Int = 40) -> String {
    let clean = String(s.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
    return clean.count > limit ? String(clean.prefix(limit)) + "…" : clean
  }
}
