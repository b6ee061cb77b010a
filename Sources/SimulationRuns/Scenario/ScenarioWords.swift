import DashModel
/// One script line split into words, as written (`words`) and lower-cased (`keys`): keywords are
/// matched case-insensitively while product ids, codes and offer ids keep their spelling.
struct ScenarioWords: Sendable {
  let words: [String]
  let keys: [String]

  init(_ words: [String]) {
    self.words = words
    self.keys = words.map { $0.lowercased() }
  }

  var count: Int { words.count }

  /// The words from `index` on, as written, joined by one space (a file name may hold spaces).
  func rest(_ from: Int) -> String { words.dropFirst(from).joined(separator: " ") }

  /// True when the line is exactly these keywords, e.g. `is("fail next renewal")`.
  func `is`(_ phrase: String) -> Bool { keys.joined(separator: " ") == phrase }

  /// Refuses a line shorter than `n` words with its usage.
  func need(_ n: Int, _ usage: String) throws(SimTextError) {
    if words.count < n { throw SimTextError("expected \(usage)") }
  }

  /// The last word, which must be at `index`, read as on/off (also yes/no, true/false).
  func onOff(at index: Int, _ usage: String) throws(SimTextError) -> Bool {
    guard index < keys.count, index == keys.count - 1 else { throw SimTextError("expected \(usage)") }
    guard let value = Self.onOff(keys[index]) else { throw SimTextError("expected on or off, found \"\(words[index])\"") }
    return value
  }

  /// on/yes/true or off/no/false, in any case; nil for anything else.
  static func onOff(_ text: String) -> Bool? {
    switch text.lowercased() {
    case "on", "yes", "true": return true
    case "off", "no", "false": return false
    default: return nil
    }
  }
}
