import DashModel
import CoreValues

/// `/` in the events panel: which events a typed text matches. The text's words (split at spaces)
/// must each occur, case-insensitively, in the event's type, subtype, notificationUUID,
/// transaction ids, summary or date: in ISO 8601 (`2026-01-09T12:32:16Z`, so `2026-01-09` finds a
/// day) and as the panel shows it (`Jan 09 12:32`, or `2026-01-09 12:32` in another year, with
/// seconds), so a date read off the screen finds its event. A month and a day typed together
/// (`Jan 9`, `jan 09`) are one word: the day alone would match any id holding its digits.
/// Matching is the list filter's byte search (`ListFilter.contains`), over lowercased text.
public struct EventSearch: Equatable, Sendable {
  public let text: String
  let words: [[UInt8]]

  public init(_ text: String) {
    self.text = text
    words = Self.words(text.lowercased()).map { Array($0.utf8) }
  }

  /// The months as the panel writes them (`Format.dateShort`), lowercased.
  static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

  /// `lower` split at spaces, a month followed by a day of one or two digits kept as one word
  /// with the day padded as the screen pads it (`mar 3` → `mar 03`).
  static func words(_ lower: String) -> [String] {
    let parts = lower.split(separator: " ").map(String.init)
    var out: [String] = []
    var i = 0
    while i < parts.count {
      if months.contains(parts[i]), i + 1 < parts.count, (1...2).contains(parts[i + 1].count),
         parts[i + 1].allSatisfy({ $0.isASCII && $0.isNumber }) {
        out.append(parts[i] + " " + (parts[i + 1].count == 1 ? "0" : "") + parts[i + 1])
        i += 2
      } else {
        out.append(parts[i])
        i += 1
      }
    }
    return out
  }

  public var isEmpty: Bool { words.isEmpty }

  public func matches(_ n: NotificationRecord) -> Bool {
    let hay = Self.searchText(n)
    return words.allSatisfy { ListFilter.contains(hay, $0) }
  }

  /// A word every matching journal line holds as it is written, so lines without it are skipped
  /// undecoded: the longest word of letters and `_` only (a date is written as milliseconds, so a
  /// word with digits, `-` or `:` may match only the derived date text, and so may letters within
  /// a month's name). Nil: every line is decoded.
  public var prefilter: [UInt8]? {
    words.filter { w in
      w.count >= 2 && w.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F }
        && !Self.months.contains { $0.utf8.count >= w.count && ListFilter.contains(Array($0.utf8), w) }
    }.max { $0.count < $1.count }
  }

  /// The event's searchable fields, lowercased, separated so a word cannot span two of them.
  static func searchText(_ n: NotificationRecord) -> [UInt8] {
    var parts = [n.notificationType.rawValue, n.subtype?.rawValue ?? "", n.notificationUUID ?? "", n.summary ?? ""]
    if let date = n.signedDate {
      // ISO, then the panel's two forms with seconds (their prefixes are the forms without).
      parts += [date.description, Format.dateShort(date, seconds: true), Format.dateShort(date, seconds: true, year: true)]
    }
    for key in ["transactionId", "originalTransactionId"] {
      if let id = n.source[key]?.stringValue { parts.append(id) }
      if let id = n.source["data"]?.objectValue?[key]?.stringValue { parts.append(id) }
    }
    return Array(parts.joined(separator: "\u{1}").lowercased().utf8)
  }
}
