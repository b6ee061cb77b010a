import CoreValues
/// The nonces of the promotional-offer signatures the App Store has accepted, remembered for as
/// long as a signature carrying one could still verify, so that a second answer with the same
/// nonce is refused. Apple calls the nonce "a one-time-use UUID antireplay value"
/// (PromotionalOfferSignatureV1.nonce) and tells developers to "generate a new nonce for every
/// signature" (PromotionalOfferSignatureCreator). So a developer's server that caches one signature
/// and answers it to every cancel page has its offer refused here from the second time on (that
/// the App Store does so is read from those words; no Apple page describes the check).
///
/// One per directory of subscribers (the app's, as its Retention Messaging configuration is), kept
/// as JSON lines beside it (`fileName`, 0600): `{"nonce", "spentAt" (ms), "originalTransactionId"}`
/// each. Lines are kept byte for byte (a field this version does not know survives a rewrite);
/// a line is forgotten only once it is older than the window a signature lives in.
/// This type decides; `OfferNonceLedger+File` reads and writes under the file's lock.
public struct OfferNonceLedger: Equatable, Sendable {
  public static let fileName = ".promotional-offer-nonces.jsonl"

  public struct Entry: Equatable, Sendable {
    /// Lowercased, as Apple signs it (V1 signs `nonce.lowercased()`).
    public var nonce: String
    public var spentAt: Instant
    public var originalTransactionId: String?
    /// The line as read or written, without its newline: what a rewrite keeps.
    public var line: [UInt8]
  }

  public private(set) var entries: [Entry]

  public init(entries: [Entry] = []) { self.entries = entries }

  /// What spending a nonce found.
  public enum Spend: Equatable, Sendable {
    /// Not seen within the window: now spent (the new entry is the ledger's last).
    case fresh
    /// Spent before, at that time, for that customer: the answer carrying it is refused.
    case reused(Entry)
  }

  /// Why the ledger could not be read or written, naming the file (and the line of a damaged one).
  public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
  }

  /// The ledger's complete lines. `bytes` past the last newline are a write a crash cut short (an
  /// append is one `write` of a whole line under the lock): not a line, and not an error.
  public static func parse(_ bytes: [UInt8], file: String) throws(Failure) -> OfferNonceLedger {
    var entries: [Entry] = []
    var start = 0
    var number = 0
    while let newline = bytes[start...].firstIndex(of: 0x0A) {
      number += 1
      let line = Array(bytes[start..<newline])
      start = newline + 1
      if line.isEmpty { continue }
      entries.append(try entry(line, at: "\(file):\(number)"))
    }
    return OfferNonceLedger(entries: entries)
  }

  /// How many of `bytes` are complete lines (the rest is a cut-short append to drop).
  public static func completeLength(of bytes: [UInt8]) -> Int {
    (bytes.lastIndex(of: 0x0A) ?? -1) + 1
  }

  private static func entry(_ line: [UInt8], at place: String) throws(Failure) -> Entry {
    guard case .object(let o)? = try? JSONParser.parse(line) else { throw Failure("\(place): not a JSON object") }
    guard let nonce = o["nonce"]?.stringValue, !nonce.isEmpty else { throw Failure("\(place): nonce is missing or not a string") }
    guard case .number(let text)? = o["spentAt"], let ms = Double(text), ms.isFinite, Instant.fileRange.contains(Instant(ms: ms)) else {
      throw Failure("\(place): spentAt is missing or not a time in milliseconds")
    }
    let original: String?
    switch o["originalTransactionId"] {
    case nil, .null?: original = nil
    case .string(let s)?: original = s
    default: throw Failure("\(place): originalTransactionId is not a string")
    }
    return Entry(nonce: nonce.lowercased(), spentAt: Instant(ms: ms), originalTransactionId: original, line: line)
  }

  /// Spends `nonce` at `now` unless an entry younger than `window` already has it. Entries older
  /// than `window` are forgotten first: a signature that old no longer verifies, whatever it carries.
  public mutating func spend(_ nonce: String, originalTransactionId: String?, at time: Instant, window: Span) -> Spend {
    // Whole milliseconds within the dates a file may hold, as `parse` reads them back: the entry
    // written is the instant this spend compared with.
    let now = Instant(ms: min(max(time.ms, Instant.fileRange.lowerBound.ms), Instant.fileRange.upperBound.ms).rounded(.down))
    forget(before: now - window)
    let key = nonce.lowercased()
    if let first = entries.first(where: { $0.nonce == key }) { return .reused(first) }
    var fields: [(String, JSON)] = [("nonce", .string(key)), ("spentAt", .number(String(Int64(now.ms))))]
    if let originalTransactionId { fields.append(("originalTransactionId", .string(originalTransactionId))) }
    let line = JSONWriter.write(.object(JSONObject(fields)), pretty: false)
    entries.append(Entry(nonce: key, spentAt: now, originalTransactionId: originalTransactionId, line: line))
    return .fresh
  }

  /// Drops the entries spent before `cutoff` (what `spend` forgets; the file is rewritten with the
  /// rest only when they are many, see `OfferNonceLedger+File`).
  public mutating func forget(before cutoff: Instant) {
    entries.removeAll { $0.spentAt < cutoff }
  }

  /// The file's bytes: each entry's line and a newline.
  public var bytes: [UInt8] {
    var out: [UInt8] = []
    for e in entries {
      out += e.line
      out.append(0x0A)
    }
    return out
  }
}
