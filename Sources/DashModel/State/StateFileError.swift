import CoreValues
/// A one-line, located error about a file: `state.json:12:5: $.renewalInfo.autoRenewStatus:
/// expected an integer, found a string`. Every load and save failure is one of these.
public struct StateFileError: Error, Equatable, Sendable, CustomStringConvertible {
  public var file: String
  public var line: Int?
  public var column: Int?
  public var path: JSONPath?
  public var message: String
  /// What kind of failure this is, for callers that act on it (a receiver answers 503 to `.busy`):
  /// decided where the error is made, never parsed back out of the message.
  public var kind: Kind

  public enum Kind: Sendable, Equatable {
    /// The file is wrong, missing or could not be written.
    case failed
    /// Another process held the file's lock for longer than `FileLock.maxWait`; nothing was
    /// changed, and the same request later may well succeed.
    case busy
    /// The change is another environment's data (Production for a Sandbox subscriber, or the
    /// reverse): one subscriber's file and journal hold one environment. Nothing was changed.
    case otherEnvironment(subscriber: String, incoming: String)
  }

  public init(file: String, line: Int? = nil, column: Int? = nil, path: JSONPath? = nil, message: String, kind: Kind = .failed) {
    self.file = file
    self.line = line
    self.column = column
    self.path = path
    self.message = message
    self.kind = kind
  }

  public var description: String {
    var s = file
    if let line { s += ":\(line)" }
    if let column { s += ":\(column)" }
    s += ": "
    if let path { s += "\(path): " }
    return Self.oneLine(s + message)
  }

  /// Messages quote what a file says (a key, a format string, a file name), and the file may be
  /// hostile: control characters would break the one-line promise or drive the terminal (ESC
  /// sequences), and bidirectional overrides would reorder what support staff read. Each is shown
  /// as an escape instead.
  package static func oneLine(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var out = String.UnicodeScalarView()
    for u in text.unicodeScalars {
      if needsEscape(u) {
        out.append(contentsOf: "\\u{\(String(u.value, radix: 16, uppercase: true))}".unicodeScalars)
      } else {
        out.append(u)
      }
    }
    return String(out)
  }

  static func needsEscape(_ u: Unicode.Scalar) -> Bool {
    switch u.value {
    case 0x00...0x1F, 0x7F...0x9F: return true
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }
}
