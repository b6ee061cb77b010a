import DashModel

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
    o["status"] = .string(status.rawValue)
    o["statusName"] = .string(status.word)
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

  /// One line of `subdash list` (plain text): every column, separated by two spaces.
  public func plainLine(now: Instant, ascii: Bool) -> String {
    let s = ListState(directory: "", rows: [self], now: now)
    let g: Glyphs = ascii ? .ascii : .unicode
    return ListColumn.allCases.map { Sanitizer.clean(ListRender.cellText(self, $0, s, g).text) }.joined(separator: "  ")
  }
}
