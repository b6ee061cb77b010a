import DashModel
import CoreValues

/// What became of each notification sent to the developer's server (`subdash deliver`), in words
/// beside its row in the events panel: `sent 200 · 12 ms`, `500 · retry 3/6 in 4.2s`,
/// `gave up after 6`, `sending`. Notifications from before delivery started have none.
enum DeliveryText {
  static func mark(for n: NotificationRecord, _ book: DeliveryBook?, wall: Instant) -> Run? {
    guard let book, let uuid = n.notificationUUID else { return nil }
    let all = book.deliveries(of: uuid)
    guard let original = all.last(where: { !$0.isDuplicate }) ?? all.last else { return nil }
    let copies = all.filter { $0.isDuplicate && $0.wasDelivered }.count
    let twice = copies > 0 ? " ×\(copies + 1)" : ""
    let last = original.sendAttempts.last
    if original.wasDelivered, let last {
      let status = last.httpStatus.map(String.init) ?? "ok"
      let took = last.milliseconds.map { " · \($0) ms" } ?? ""
      let retried = original.sendAttempts.count > 1 ? " (attempt \(original.sendAttempts.count))" : ""
      return Run("sent \(status)\(took)\(retried)\(twice)", Style(.ok))
    }
    guard let last else { return Run("sending", Style(.dim)) }
    let why = last.httpStatus.map(String.init) ?? Self.short(last.result)
    if let next = original.nextAttemptDate {
      let attempt = original.sendAttempts.count + 1
      let wait = next > wall ? " in \(Format.wait(next - wall))" : " now"
      return Run("\(why) · retry \(attempt)/\(book.schedule.maxAttempts)\(wait)", Style(.warn))
    }
    return Run("\(why) · gave up after \(original.sendAttempts.count)", Style(.danger))
  }

  /// "delivering to 127.0.0.1:8080: 10 sent, 1 pending", for the panel's title.
  static func summary(_ book: DeliveryBook) -> String {
    var parts = ["\(book.delivered) sent"]
    if !book.pending.isEmpty { parts.append("\(book.pending.count) pending") }
    if book.failed > 0 { parts.append("\(book.failed) failed") }
    return "to \(host(book.url)): " + parts.joined(separator: ", ")
  }

  /// The URL without its scheme, cleaned: it came from a file.
  static func host(_ url: String) -> String {
    var u = Substring(url)
    if let r = u.firstRange(of: "://") { u = u[r.upperBound...] }
    if u.hasSuffix("/") { u = u.dropLast() }
    return Sanitizer.truncate(Sanitizer.clean(String(u)), to: 40, ellipsis: "…")
  }

  static func short(_ r: SendAttemptResult) -> String {
    switch r {
    case .timedOut: "timed out"
    case .socketIssue: "no connection"
    case .noResponse: "no response"
    case .tlsIssue: "TLS"
    case .prematureClose: "closed early"
    case .circularRedirect: "redirect loop"
    default: r.rawValue
    }
  }
}
