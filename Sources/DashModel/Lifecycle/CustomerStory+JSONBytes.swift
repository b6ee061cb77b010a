import CoreValues
/// `timelineJSON` written straight into bytes for `subdash show --json`: a long history has a
/// period per transaction, and building a `JSONObject` and two date strings per period, then
/// writing them, was half of the command's time. The bytes are exactly those `JSONWriter`
/// writes for `timelineJSON` (CustomerStoryJSONBytesTests compares them).
extension CustomerStory {
  /// Appends the timeline array as `JSONWriter` would write `timelineJSON` at `indent`.
  public func writeTimelineJSON(into out: inout [UInt8], indent: Int) {
    guard !timeline.periods.isEmpty else { out.append(0x5B); out.append(0x5D); return }
    out.append(0x5B)
    writeTimelinePeriods(timeline.periods.indices, into: &out, indent: indent)
    JSONBytes.newline(&out, indent: indent)
    out.append(0x5D)
  }

  /// The periods in `range` as they sit inside that array: each after its comma (but the first
  /// of all) and its newline. Ranges written apart and joined in order make the same bytes, so
  /// a long timeline can be written in parts at once.
  public func writeTimelinePeriods(_ range: Range<Int>, into out: inout [UInt8], indent: Int) {
    let inner = indent + 2, field = indent + 4
    var product = RepeatedString()
    timeline.periods.withUnsafeBufferPointer { all in
      for k in range {
        if k > 0 { out.append(0x2C) }
        JSONBytes.newline(&out, indent: inner)
        out.append(0x7B)
        // Fields read in place (a copy of the period would retain its strings).
        JSONBytes.newline(&out, indent: field)
        JSONBytes.key("kind", into: &out)
        JSONBytes.string(all[k].kind.rawValue, into: &out)
        Self.writeDate("start", "startISO", all[k].start, field, &out)
        Self.writeDate("end", "endISO", all[k].end, field, &out)
        out.append(0x2C)
        JSONBytes.newline(&out, indent: field)
        JSONBytes.key("productId", into: &out)
        product.write(all, k, into: &out)
        out.append(0x2C)
        JSONBytes.newline(&out, indent: field)
        JSONBytes.key("transactionId", into: &out)
        JSONBytes.stringOrNull(all[k].transactionId, into: &out)
        JSONBytes.newline(&out, indent: inner)
        out.append(0x7D)
      }
    }
  }

  /// `, "start": ms, "startISO": "…"` as `setDate` makes them (the date is never nil here).
  private static func writeDate(_ key: String, _ isoKey: String, _ d: Instant, _ indent: Int, _ out: inout [UInt8]) {
    out.append(0x2C)
    JSONBytes.newline(&out, indent: indent)
    JSONBytes.key(key, into: &out)
    JSONBytes.double(d.ms, into: &out)
    out.append(0x2C)
    JSONBytes.newline(&out, indent: indent)
    JSONBytes.key(isoKey, into: &out)
    JSONBytes.iso(d, into: &out)
  }
}

/// A period's product id as JSON, the text kept while the next period names the same string.
///
/// Why: a timeline names a few products 100,000 times, all one shared string, and two threads
/// write it at once (`ShowTimelineStream`). Reading the field as a `String` retains and releases
/// that one object on both cores, a tenth of the output's time in `perf`. The field's bits are
/// compared instead, which retains nothing: equal bits are the same string (the same storage, or
/// the same small string), whose text was escaped once. Different bits are escaped as before.
private struct RepeatedString {
  private var bits: (UInt64, UInt64)? = nil
  /// Holds the string whose bits are kept, so that its storage cannot be freed and reused.
  private var value: String? = nil
  private var text: [UInt8] = []

  /// Where the field sits in a period (nil would mean it is not stored there: then no bits are read).
  private static let offset = MemoryLayout<Timeline.Period>.offset(of: \.productId)

  mutating func write(_ periods: UnsafeBufferPointer<Timeline.Period>, _ k: Int, into out: inout [UInt8]) {
    guard MemoryLayout<String?>.size == 16, let offset = Self.offset, let base = UnsafeRawPointer(periods.baseAddress) else {
      JSONBytes.stringOrNull(periods[k].productId, into: &out)
      return
    }
    let raw = (base + k * MemoryLayout<Timeline.Period>.stride + offset).loadUnaligned(as: (UInt64, UInt64).self)
    if let bits, bits == raw {
      out.append(contentsOf: text)
      return
    }
    value = periods[k].productId
    text.removeAll(keepingCapacity: true)
    JSONBytes.stringOrNull(value, into: &text)
    bits = raw
    out.append(contentsOf: text)
  }
}
