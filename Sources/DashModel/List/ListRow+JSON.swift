import CoreValues
extension ListRow {
  /// The row for `subdash list --json`: App Store field names where one exists, dates as
  /// milliseconds with an ISO twin (as `show --json` writes them).
  public var json: JSON {
    var o = JSONObject()
    o["file"] = .string(file)
    o["originalTransactionId"] = originalTransactionId.map(JSON.string) ?? .null
    o["appAccountToken"] = appAccountToken.map(JSON.string) ?? .null
    o["productId"] = productId.map(JSON.string) ?? .null
    o["productName"] = productName.map(JSON.string) ?? .null
    // As `show --json` names it: Apple's 1–5 code (null without one) and its name, so a script
    // reading both sees one set of names.
    o["status"] = status.code.map { JSON.int($0) } ?? .null
    o["statusName"] = .string(status.name)
    if let due {
      o["due"] = .object(JSONObject([("kind", .string(due.kind.rawValue)), ("date", .double(due.date.ms)), ("dateISO", .string(due.date.description))]))
    } else {
      o["due"] = .null
    }
    o["flags"] = .array(flags.map { .string($0.rawValue) })
    o["lastEvent"] = lastEvent.map(JSON.string) ?? .null
    o["lastEventDate"] = lastEventDate.map { .double($0.ms) } ?? .null
    o["otherIds"] = .array(otherIds.map(JSON.string))
    if let error { o["error"] = .string(error) }
    o["simulatedNow"] = simulatedNow.map { .double($0.ms) } ?? .null
    return .object(o)
  }
}
