import CoreValues
/// `deliveries` in the state file: where notifications go, which are still on their way, and the
/// most recent finished ones. Written by `subdash deliver` (and `simulate --deliver`) through the
/// locked write path; read by the dashboard and `show`. Bounded: the history of every attempt is
/// the receiver's to keep, the file holds the last `recentLimit`.
public struct DeliveryBook: Equatable, Sendable {
  public static let key = "deliveries"
  public static let recentLimit = 100

  public var source: JSONObject
  public var url: String
  /// The journal length already looked at: notifications after it are new.
  public var journalOffset: Int64
  public var schedule: RetrySchedule
  /// Not yet delivered, with attempts left, oldest first.
  public var pending: [Delivery]
  /// Delivered or given up, oldest first.
  public var recent: [Delivery]
  public var delivered: Int
  public var failed: Int
  public var duplicatesSent: Int

  public init(url: String, journalOffset: Int64, schedule: RetrySchedule) {
    source = JSONObject()
    self.url = url
    self.journalOffset = journalOffset
    self.schedule = schedule
    pending = []
    recent = []
    delivered = 0
    failed = 0
    duplicatesSent = 0
  }

  public init(_ r: ObjectReader) throws(DecodeError) {
    source = r.object
    url = try r.requiredString("url")
    journalOffset = try r.int64("journalOffset") ?? 0
    if journalOffset < 0 { throw DecodeError(r.path.appending("journalOffset"), "must not be negative") }
    let name = try r.string("retrySchedule") ?? RetrySchedule.production.rawValue
    guard let schedule = RetrySchedule(rawValue: name) else {
      throw DecodeError(r.path.appending("retrySchedule"), "\"\(name)\" is not a retry schedule (production or sandbox)")
    }
    self.schedule = schedule
    pending = try r.objects("pending") { (o) throws(DecodeError) in try Delivery(o) } ?? []
    recent = try r.objects("recent") { (o) throws(DecodeError) in try Delivery(o) } ?? []
    delivered = try r.int("delivered") ?? 0
    failed = try r.int("failed") ?? 0
    duplicatesSent = try r.int("duplicatesSent") ?? 0
  }

  public var json: JSON {
    var w = ObjectWriter(source)
    w.set("url", url)
    w.set("journalOffset", journalOffset)
    w.set("retrySchedule", schedule.rawValue)
    w.set("delivered", delivered)
    w.set("failed", failed)
    w.set("duplicatesSent", duplicatesSent)
    w.set("pending", json: .array(pending.map(\.json)))
    w.set("recent", json: .array(recent.map(\.json)))
    return w.json
  }

  /// Every delivery of `notificationUUID` the file still knows, oldest first (a duplicate makes two).
  public func deliveries(of notificationUUID: String) -> [Delivery] {
    (recent + pending).filter { $0.notificationUUID == notificationUUID }
  }

  /// The pending deliveries whose next attempt is due at `now` (wall clock), earliest first;
  /// those due at the same moment in the order they were written.
  public func due(at now: Instant) -> [Delivery] {
    pending.enumerated()
      .filter { ($0.element.nextAttemptDate ?? now) <= now }
      .sorted { ($0.element.nextAttemptDate ?? now, $0.offset) < ($1.element.nextAttemptDate ?? now, $1.offset) }
      .map(\.element)
  }

  /// When the earliest pending attempt is due.
  public var nextDue: Instant? { pending.compactMap(\.nextAttemptDate).min() }

  public mutating func enqueue(_ d: Delivery) {
    pending.append(d)
  }

  /// Records an attempt at the pending delivery at `index` in `pending` order: delivered and
  /// done, retried later on the schedule, or given up once the schedule is spent. `retryAt` is
  /// `RetrySchedule.nextAttempt` for this delivery (scaled by the caller's rate).
  public mutating func record(_ attempt: DeliveryAttempt, forPendingAt index: Int, retryAt: Instant?) {
    var d = pending[index]
    d.sendAttempts.append(attempt)
    if attempt.result == .success || retryAt == nil {
      d.nextAttemptDate = nil
      d.signedPayload = nil
      pending.remove(at: index)
      if d.isDuplicate { duplicatesSent += 1 } else if d.wasDelivered { delivered += 1 } else { failed += 1 }
      recent.append(d)
      if recent.count > Self.recentLimit { recent.removeFirst(recent.count - Self.recentLimit) }
    } else {
      d.nextAttemptDate = retryAt.map { Instant(ms: $0.ms.rounded(.up)) }
      pending[index] = d
    }
  }
}
