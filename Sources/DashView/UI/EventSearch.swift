import DashModel

/// `/` in the events panel: which events a typed text matches. The text's words (split at spaces)
/// must each occur, case-insensitively, in the event's type, subtype, notificationUUID,
/// transaction ids, summary or date (ISO 8601, `2026-01-09T12:32:16Z`, so `2026-01-09` finds a
/// day). Matching is the list filter's byte search (`ListFilter.contains`), over lowercased text.
public struct EventSearch: Equatable, Sendable {
  public let text: String
  let words: [[UInt8]]

  public init(_ text: String) {
    self.text = text
    words = text.lowercased().split(separator: " ").map { Array($0.utf8) }
  }

  public var isEmpty: Bool { words.isEmpty }

  public func matches(_ n: NotificationRecord) -> Bool {
    let hay = Self.searchText(n)
    return words.allSatisfy { ListFilter.contains(hay, $0) }
  }

  /// A word every matching journal line holds as it is written, so lines without it are skipped
  /// undecoded: the longest word of letters and `_` only (a date is written as milliseconds, so a
  /// word with digits, `-` or `:` may match only the derived ISO text). Nil: every line is decoded.
  public var prefilter: [UInt8]? {
    words.filter { $0.count >= 2 && $0.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F } }.max { $0.count < $1.count }
  }

  /// The event's searchable fields, lowercased, separated so a word cannot span two of them.
  static func searchText(_ n: NotificationRecord) -> [UInt8] {
    var parts = [n.notificationType.rawValue, n.subtype?.rawValue ?? "", n.notificationUUID ?? "", n.summary ?? ""]
    if let date = n.signedDate { parts.append(date.description) }
    for key in ["transactionId", "originalTransactionId"] {
      if let id = n.source[key]?.stringValue { parts.append(id) }
      if let id = n.source["data"]?.objectValue?[key]?.stringValue { parts.append(id) }
    }
    return Array(parts.joined(separator: "\u{1}").lowercased().utf8)
  }
}
