import CoreValues
import DashModel
/// A subscriber's whole notification log, addressed newest first (0 = newest): the journal's
/// notifications (through a `JournalIndex`, so a page costs its own size) and then the inline
/// log, in the order `StateFile.recentNotifications` lists them. Searching walks it in that order.
public struct EventLog: Sendable {
  public private(set) var index = JournalIndex()
  /// The inline log, newest first (a SubDash file keeps it in date order; one out of order is
  /// sorted as `recentNotifications` sorts it).
  public private(set) var inline: [NotificationRecord] = []
  private var journalPath: String?

  public init() {}

  /// Brings the log up to `state` (the latest load of `statePath`): extends the index by what the
  /// journal gained since the last call.
  public mutating func update(_ state: SubscriptionState, statePath: String) throws(StateFileError) {
    inline = state.document.subscriber.notifications.inDateOrder().reversed()
    if let j = state.document.journal {
      let path = PathName.directory(of: statePath) + "/" + j.file
      if path != journalPath { index = JournalIndex() }
      journalPath = path
      try index.extend(path: path, committedBytes: j.committedBytes)
    } else {
      journalPath = nil
      index = JournalIndex()
    }
  }

  public var count: Int { index.notificationLines.count + inline.count }

  /// Events `range` (newest-first positions), newest first.
  public func page(_ range: Range<Int>) throws(StateFileError) -> [NotificationRecord] {
    let range = range.clamped(to: 0..<count)
    let journalCount = index.notificationLines.count
    var out: [NotificationRecord] = []
    let inJournal = range.clamped(to: 0..<journalCount)
    if !inJournal.isEmpty, let path = journalPath {
      // Newest-first positions p map to journal lines journalCount - 1 - p.
      let lines = (journalCount - inJournal.upperBound)..<(journalCount - inJournal.lowerBound)
      out += try index.notifications(lines, path: path).reversed()
    }
    let inInline = range.clamped(to: journalCount..<count)
    out += inline[(inInline.lowerBound - journalCount)..<(inInline.upperBound - journalCount)]
    return out
  }

  /// The next event after position `start` (not `start` itself) towards older (`forward`) or
  /// newer events that `matches`, wrapping around once; nil when none does.
  public func search(from start: Int, forward: Bool, prefilter: [UInt8]?, matches: (NotificationRecord) -> Bool) throws(StateFileError) -> Int? {
    guard count > 0 else { return nil }
    let origin = min(max(0, start), count - 1)
    for step in [forward ? (origin + 1)..<count : 0..<origin, forward ? 0..<(origin + 1) : origin..<count] {
      if let hit = try first(in: step, forward: forward, prefilter: prefilter, matches: matches) { return hit }
    }
    return nil
  }

  /// The first match in `range` (newest-first positions), walking older when `forward`.
  private func first(in range: Range<Int>, forward: Bool, prefilter: [UInt8]?, matches: (NotificationRecord) -> Bool) throws(StateFileError) -> Int? {
    guard !range.isEmpty else { return nil }
    let journalCount = index.notificationLines.count
    let inJournal = range.clamped(to: 0..<journalCount)
    let inInline = range.clamped(to: journalCount..<count)
    func inJournalHit() throws(StateFileError) -> Int? {
      guard !inJournal.isEmpty, let path = journalPath else { return nil }
      // Older = smaller journal line numbers.
      let top = journalCount - 1 - inJournal.lowerBound, bottom = journalCount - 1 - (inJournal.upperBound - 1)
      let lines = forward ? stride(from: top, to: bottom - 1, by: -1) : stride(from: bottom, to: top + 1, by: 1)
      return try index.firstNotification(at: lines, path: path, prefilter: prefilter, matches: matches).map { journalCount - 1 - $0 }
    }
    func inInlineHit() -> Int? {
      let positions = forward ? Array(inInline) : inInline.reversed()
      return positions.first { matches(inline[$0 - journalCount]) }
    }
    if forward {
      if let hit = try inJournalHit() { return hit }
      return inInlineHit()
    }
    if let hit = inInlineHit() { return hit }
    return try inJournalHit()
  }
}
