import CoreValues
/// The append-only history beside a state document: one JSON object per line, either
/// `{"transaction": {...}}` or `{"notification": {...}}`. Appending costs the size of the new lines,
/// and reading the newest entries costs the size of those entries, whatever the history's length.
///
/// This is the journal's codec (lines to entries and back); reading and appending the file is
/// SubscriberStorage's (Files/Journal.swift).
public enum Journal {
  public enum Entry: Equatable, Sendable {
    case transaction(TransactionPayload)
    case notification(NotificationRecord)
  }

  /// The journal file name SubDash uses for a state file named `name`.
  public static func defaultName(for stateFileName: String) -> String {
    var base = stateFileName
    if base.hasSuffix(".json") { base.removeLast(5) }
    return base + ".journal.jsonl"
  }

  public static func encode(_ entries: [Entry]) -> [UInt8] {
    // An import's thousands of lines are encoded in runs on every core (each line stands alone):
    // this was 8 % of a 10,000-transaction import, all on one core after the pages were verified.
    guard entries.count >= 2 * linesPerRun else { return encode(entries[...]) }
    let runs = stride(from: 0, to: entries.count, by: linesPerRun).map { $0..<min($0 + linesPerRun, entries.count) }
    let parts = OrderedParallelMap.map(runs) { encode(entries[$0]) }
    var out: [UInt8] = []
    out.reserveCapacity(parts.reduce(0) { $0 + $1.count })
    for part in parts { out += part }
    return out
  }

  static let linesPerRun = 512

  static func encode(_ entries: ArraySlice<Entry>) -> [UInt8] {
    var out: [UInt8] = []
    for e in entries {
      let obj: JSONObject
      switch e {
      case .transaction(let t): obj = JSONObject([("transaction", t.json)])
      case .notification(let n): obj = JSONObject([("notification", n.json)])
      }
      out += JSONWriter.write(.object(obj), pretty: false)
      out.append(0x0A)
    }
    return out
  }

  package static func decode(_ line: [UInt8], file: String) throws(StateFileError) -> Entry {
    do {
      let json = try JSONParser.parse(line)
      let r = try ObjectReader(json, at: .root)
      if let t = try r.object("transaction") { return .transaction(try TransactionPayload(t)) }
      if let n = try r.object("notification") { return .notification(try NotificationRecord(n)) }
      throw DecodeError(.root, "a journal line must hold \"transaction\" or \"notification\"")
    } catch let e as JSONSyntaxError {
      throw StateFileError(file: file, message: "damaged history entry: \(e.message)")
    } catch let e as DecodeError {
      throw StateFileError(file: file, path: e.path, message: "damaged history entry: \(e.message)")
    } catch {
      throw StateFileError(file: file, message: "damaged history entry")
    }
  }
}
