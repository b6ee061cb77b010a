import CoreValues
import DashModel
import SubscriberStorage
/// Recognises one input by its shape and decodes what it holds into `ImportedItems`:
/// a compact JWS (transaction, renewal info or notification), a notification body
/// `{"signedPayload"}`, JSON Lines of them (a webhook log), App Store Server API responses (Get All
/// Subscription Statuses, Get Transaction Info, Get Transaction History v1/v2, Get Refund History,
/// Look Up Order ID, Get Notification History), decoded payloads, a JSON array of any of these, and
/// a RevenueCat GET /v1/subscribers response.
package struct InputReader {
  let label: String
  let checker: any SignedDataChecking
  var items = ImportedItems()
  /// Set where a shape is refused, for the ImportError the DecodeError becomes.
  var failureKind: ImportError.Kind = .other

  static func read(_ input: ImportInput, checker: any SignedDataChecking) throws(ImportError) -> ImportedItems {
    var reader = InputReader(label: input.label, checker: checker)
    var bytes = input.bytes
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    guard let first = bytes.first(where: { !Self.isSpace($0) }) else {
      throw ImportError(input: input.label, message: "empty input: expected JSON, JSON Lines or a compact JWS")
    }
    if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
      if let refusal = InputSniffer.sniff(bytes) {
        let line = JSONParser.lineAndColumn(of: refusal.offset, in: bytes).line
        throw ImportError(input: input.label, line: line, path: refusal.path, message: refusal.message, kind: refusal.kind)
      }
      if let fields = InputSniffer.responseFields(bytes) { return try reader.readResponse(fields, in: bytes) }
      do {
        let json = try JSONParser.parse(bytes)
        do { try reader.readJSON(json, at: .root) } catch { throw reader.located(error, in: bytes, line: nil) }
        return reader.items
      } catch let syntax as JSONSyntaxError {
        // Several JSON values, one a line, is a webhook log (JSON Lines); one broken document is an error.
        guard Self.isJSONLines(bytes) else {
          throw ImportError(input: input.label, line: syntax.line, message: "invalid JSON at column \(syntax.column): \(syntax.message)")
        }
      } catch let e as ImportError {
        throw e
      } catch {
        throw ImportError(input: input.label, message: "\(error)")
      }
    }
    try reader.readLines(bytes)
    return reader.items
  }

  static func isSpace(_ b: UInt8) -> Bool { JSONWhitespace.contains(b) }

  static func lines(_ bytes: [UInt8]) -> [(number: Int, bytes: ArraySlice<UInt8>)] {
    var out: [(Int, ArraySlice<UInt8>)] = []
    var n = 0
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
      n += 1
      if line.contains(where: { !isSpace($0) }) { out.append((n, line)) }
    }
    return out
  }

  static func isJSONLines(_ bytes: [UInt8]) -> Bool {
    let ls = lines(bytes)
    guard ls.count >= 2, let first = ls.first else { return false }
    return (try? JSONParser.parse(Array(first.bytes))) != nil
  }

  /// One item a line: a JSON value or a compact JWS.
  mutating func readLines(_ bytes: [UInt8]) throws(ImportError) {
    for (number, line) in Self.lines(bytes) {
      let lineBytes = Array(line)
      let first = lineBytes.first(where: { !Self.isSpace($0) })
      if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
        let json: JSON
        do { json = try JSONParser.parse(lineBytes) } catch {
          throw ImportError(input: label, line: number, message: "invalid JSON at column \(error.column): \(error.message)")
        }
        do { try readJSON(json, at: .root) } catch { throw ImportError(input: label, line: number, path: error.path, message: error.message, kind: failureKind) }
      } else {
        let text = String(decoding: lineBytes, as: UTF8.self)
        guard CompactJWS.looksLikeJWS(text) else {
          throw ImportError(input: label, line: number, message: "not an importable input: expected JSON, JSON Lines or a compact JWS", kind: .unrecognised)
        }
        do {
          let (payload, provenance) = try signed(text, at: .root, shape: "compact JWS")
          try addPayload(payload, at: .root, provenance)
        } catch {
          throw ImportError(input: label, line: number, message: error.message)
        }
      }
    }
  }

  /// An API response read from the fields the reader uses, each parsed on its own (InputSniffer).
  mutating func readResponse(_ fields: [(key: String, range: Range<Int>)], in bytes: [UInt8]) throws(ImportError) -> ImportedItems {
    var object = JSONObject()
    var parsed: [String: Range<Int>] = [:]
    for (key, range) in fields where InputSniffer.responseReadKeys.contains(key) {
      do { object[key] = try JSONParser.parse(Array(bytes[range])) } catch {
        let line = JSONParser.lineAndColumn(of: range.lowerBound + error.offset, in: bytes)
        throw ImportError(input: label, line: line.line, message: "invalid JSON at column \(line.column): \(error.message)")
      }
      parsed[key] = range
    }
    do { try readJSON(.object(object), at: .root) } catch {
      // Located within its field's bytes: the whole document is never parsed.
      var path = error.path
      if case .key(let key)? = path.components.first, let range = parsed[key] {
        let slice = Array(bytes[range])
        path.components.removeFirst()
        while true {
          if let offset = JSONParser.offset(of: path, in: slice) {
            let line = JSONParser.lineAndColumn(of: range.lowerBound + offset, in: bytes).line
            throw ImportError(input: label, line: line, path: error.path, message: error.message, kind: failureKind)
          }
          if path.components.isEmpty { break }
          path.components.removeLast()
        }
      }
      let start = bytes.firstIndex { !Self.isSpace($0) && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF } ?? 0
      throw ImportError(input: label, line: JSONParser.lineAndColumn(of: start, in: bytes).line, path: error.path, message: error.message, kind: failureKind)
    }
    return items
  }

  func located(_ error: DecodeError, in bytes: [UInt8], line: Int?) -> ImportError {
    var path = error.path
    while true {
      if let offset = JSONParser.offset(of: path, in: bytes) {
        return ImportError(input: label, line: JSONParser.lineAndColumn(of: offset, in: bytes).line, path: error.path, message: error.message, kind: failureKind)
      }
      if path.components.isEmpty { return ImportError(input: label, path: error.path, message: error.message, kind: failureKind) }
      path.components.removeLast()
    }
  }

  // MARK: shapes

  mutating func readJSON(_ json: JSON, at path: JSONPath) throws(DecodeError) {
    switch json {
    case .array(let a):
      // An empty array holds nothing to import: said, rather than shown as a customer who never subscribed.
      if a.isEmpty { throw DecodeError(path, "an empty array: no App Store or RevenueCat data to import") }
      for (i, e) in a.enumerated() { try readJSON(e, at: path.appending(i)) }
    case .object(let o):
      try readObject(o, at: path)
    default:
      throw DecodeError(path, "expected an App Store or RevenueCat JSON object, found \(json.kindName)")
    }
  }

  mutating func readObject(_ o: JSONObject, at path: JSONPath) throws(DecodeError) {
    if o["signedPayload"] != nil {
      try readNotificationBody(o, at: path, shape: "notification body")
    } else if let history = o["notificationHistory"] {
      guard case .array(let entries) = history else { throw DecodeError(path.appending("notificationHistory"), "expected an array, found \(history.kindName)") }
      for (i, e) in entries.enumerated() {
        let p = path.appending("notificationHistory").appending(i)
        guard case .object(let entry) = e else { throw DecodeError(p, "expected an object, found \(e.kindName)") }
        try readNotificationBody(entry, at: p, shape: "Get Notification History")
      }
    } else if o["notificationType"] == nil, case .array(let groups)? = o["data"] {
      try readStatuses(groups, at: path.appending("data"))
    } else if let list = o["signedTransactions"] {
      let shape = o["status"] != nil ? "Look Up Order ID"
        : (o["bundleId"] != nil || o["environment"] != nil || o["appAppleId"] != nil) ? "Get Transaction History" : "Get Refund History"
      guard case .array(let jwss) = list else { throw DecodeError(path.appending("signedTransactions"), "expected an array, found \(list.kindName)") }
      // A page's JWS are checked together (the checker may use every core), then taken in order:
      // an entry that is no string stops the page where it stands, after the entries before it.
      var page: [(index: Int, jws: String)] = []
      var stop: DecodeError?
      for (i, j) in jwss.enumerated() {
        do {
          if let jws = try signedString(j, at: path.appending("signedTransactions").appending(i)) { page.append((i, jws)) }
        } catch {
          stop = error
          break
        }
      }
      for (entry, checked) in zip(page, checker.checkAll(page.map(\.jws))) {
        let p = path.appending("signedTransactions").appending(entry.index)
        let (payload, provenance) = try signed(entry.jws, at: p, shape: shape, checked: checked)
        try addTransaction(payload, at: p, provenance)
      }
      if let stop { throw stop }
    } else if o["notificationType"] == nil, o["signedTransactionInfo"] != nil || o["signedRenewalInfo"] != nil {
      try readSignedPair(o, at: path, shape: "Get Transaction Info")
    } else if o["notificationType"] != nil {
      try readNotification(o, at: path, Provenance(input: label, shape: "decoded payload", signature: .unsigned, environment: nil), envelope: nil)
    } else if RevenueCatReader.recognises(o) {
      var rc = RevenueCatReader(label: label)
      try rc.read(o, at: path)
      items.append(rc.items)
    } else if o["subscriber"] != nil || o["format"] != nil {
      throw DecodeError(path, "this is already a SubDash state file: open it with `subdash FILE`, or import its sources")
    } else if o["transactionId"] != nil || (o["purchaseDate"] != nil && o["productId"] != nil) {
      try addTransaction(o, at: path, unsigned(o))
    } else if o["autoRenewStatus"] != nil || o["autoRenewProductId"] != nil || o["renewalDate"] != nil {
      try addRenewalInfo(o, at: path, unsigned(o))
    } else if let known = ResponseWithoutSubscriber.recognise(o) {
      failureKind = .noSubscriber(known)
      throw DecodeError(path, known.explanation)
    } else {
      failureKind = .unrecognised
      throw DecodeError(path, InputSniffer.unrecognisedMessage)
    }
  }

  func unsigned(_ o: JSONObject) -> Provenance {
    Provenance(input: label, shape: "decoded payload", signature: .unsigned, environment: o["environment"]?.stringValue)
  }

  /// Get All Subscription Statuses: `data[].lastTransactions[]` with signed transaction and renewal info.
  mutating func readStatuses(_ groups: [JSON], at path: JSONPath) throws(DecodeError) {
    for (gi, g) in groups.enumerated() {
      let gp = path.appending(gi)
      let group = try ObjectReader(g, at: gp)
      for (lt, lp) in try group.array("lastTransactions") ?? [] {
        let entry = try ObjectReader(lt, at: lp)
        if let otid = try entry.string("originalTransactionId") { items.namedSubscribers.append(otid) }
        try readSignedPair(entry.object, at: lp, shape: "Get All Subscription Statuses")
      }
    }
  }

  /// `signedTransactionInfo` and `signedRenewalInfo` side by side (Transaction Info, statuses).
  mutating func readSignedPair(_ o: JSONObject, at path: JSONPath, shape: String) throws(DecodeError) {
    if let jws = try signedString(o["signedTransactionInfo"], at: path.appending("signedTransactionInfo")) {
      let (payload, provenance) = try signed(jws, at: path.appending("signedTransactionInfo"), shape: shape)
      try addTransaction(payload, at: path.appending("signedTransactionInfo"), provenance)
    }
    if let jws = try signedString(o["signedRenewalInfo"], at: path.appending("signedRenewalInfo")) {
      let (payload, provenance) = try signed(jws, at: path.appending("signedRenewalInfo"), shape: shape)
      try addRenewalInfo(payload, at: path.appending("signedRenewalInfo"), provenance)
    }
  }

  mutating func readNotificationBody(_ o: JSONObject, at path: JSONPath, shape: String) throws(DecodeError) {
    guard let jws = try signedString(o["signedPayload"], at: path.appending("signedPayload")) else { return }
    let (payload, provenance) = try signed(jws, at: path.appending("signedPayload"), shape: shape)
    guard payload["notificationType"] != nil else {
      throw DecodeError(path.appending("signedPayload"), "the signed payload is not a notification (no notificationType)")
    }
    try readNotification(payload, at: path.appending("signedPayload"), provenance, envelope: o)
  }

  // MARK: payloads

  /// A JWS string where one is expected; nil (with a warning) for a placeholder that is no JWS at
  /// all, as Apple's sample responses hold ("signed_transaction_one").
  mutating func signedString(_ json: JSON?, at path: JSONPath) throws(DecodeError) -> String? {
    guard let json, json != .null else { return nil }
    guard case .string(let s) = json else { throw DecodeError(path, "expected a JWS string, found \(json.kindName)") }
    guard CompactJWS.looksLikeJWS(s) else {
      items.warnings.append("\(label): \(path): \"\(Self.clip(s))\" is not a JWS (a placeholder?); skipped")
      return nil
    }
    return s
  }

  static func clip(_ s: String) -> String { LogText.clipKeepingLetters(s) }

  /// Decodes a JWS and asks the checker for its verdict (unless `checked` already holds it, from
  /// `checkAll`); an invalid signature stops the import.
  func signed(_ jws: String, at path: JSONPath, shape: String, checked: CheckedJWS? = nil) throws(DecodeError) -> (JSONObject, Provenance) {
    let payload: JSONObject
    let verifiedPayload = checked.map(\.payload) ?? checker.verifiedPayload(compactJWS: jws)
    switch verifiedPayload.map(Result.success) ?? CompactJWS.payload(jws) {
    case .failure(let p): throw DecodeError(path, p.message)
    case .success(let o): payload = o
    }
    let env = payload["environment"]?.stringValue ?? payload["data"]?.objectValue?["environment"]?.stringValue
      ?? payload["summary"]?.objectValue?["environment"]?.stringValue
    let signature: Provenance.Signature
    switch checked?.verdict ?? checker.check(compactJWS: jws) {
    case .appleSigned: signature = .appleSigned
    case .trustedRoot: signature = .trustedRoot
    case .unverified: signature = .unverified
    case .unsigned: signature = .unsigned
    case .invalid(let reason): throw DecodeError(path, "signature invalid: \(reason)")
    }
    return (payload, Provenance(input: label, shape: shape, signature: signature, environment: env))
  }

  mutating func addPayload(_ o: JSONObject, at path: JSONPath, _ provenance: Provenance) throws(DecodeError) {
    if o["notificationType"] != nil {
      try readNotification(o, at: path, provenance, envelope: nil)
    } else if o["transactionId"] != nil {
      try addTransaction(o, at: path, provenance)
    } else if o["autoRenewStatus"] != nil || o["autoRenewProductId"] != nil || o["renewalDate"] != nil {
      try addRenewalInfo(o, at: path, provenance)
    } else {
      // Apple's test vectors sign near-empty payloads ({"environment", "signedDate"}): nothing to
      // import, but not an error in the input either.
      items.warnings.append("\(label): \(path): the JWS payload has no transactionId, renewal fields or notificationType; skipped")
      items.sources.append(provenance)
    }
  }

  @discardableResult
  mutating func addTransaction(_ o: JSONObject, at path: JSONPath, _ provenance: Provenance) throws(DecodeError) -> TransactionPayload {
    var o = o
    o[Provenance.key] = provenance.json
    let t = try TransactionPayload(ObjectReader(o, at: path))
    items.transactions.append(t)
    items.sources.append(provenance)
    return t
  }

  @discardableResult
  mutating func addRenewalInfo(_ o: JSONObject, at path: JSONPath, _ provenance: Provenance) throws(DecodeError) -> RenewalInfoPayload {
    var o = o
    o[Provenance.key] = provenance.json
    let r = try RenewalInfoPayload(ObjectReader(o, at: path))
    items.renewalInfos.append(r)
    items.sources.append(provenance)
    return r
  }

  /// A notification: its nested signed transaction and renewal info become items of their own
  /// (checked like any JWS), the log keeps the envelope without them, plus the delivery record of
  /// Get Notification History.
  mutating func readNotification(_ o: JSONObject, at path: JSONPath, _ provenance: Provenance, envelope: JSONObject?) throws(DecodeError) {
    var n = o
    var otid: String?
    var productId: String?
    if var data = o["data"]?.objectValue {
      let dp = path.appending("data")
      if let jws = try signedString(data["signedTransactionInfo"], at: dp.appending("signedTransactionInfo")) {
        let (payload, p) = try signed(jws, at: dp.appending("signedTransactionInfo"), shape: provenance.shape)
        let t = try addTransaction(payload, at: dp.appending("signedTransactionInfo"), p)
        otid = t.originalTransactionId
        productId = t.productId
      }
      if let jws = try signedString(data["signedRenewalInfo"], at: dp.appending("signedRenewalInfo")) {
        let (payload, p) = try signed(jws, at: dp.appending("signedRenewalInfo"), shape: provenance.shape)
        let r = try addRenewalInfo(payload, at: dp.appending("signedRenewalInfo"), p)
        otid = otid ?? r.originalTransactionId
        productId = productId ?? r.productId
      }
      data["signedTransactionInfo"] = nil
      data["signedRenewalInfo"] = nil
      n["data"] = .object(data)
    }
    if let envelope {
      if let a = envelope["sendAttempts"] { n["sendAttempts"] = a }
      if let f = envelope["firstSendAttemptResult"] { n["firstSendAttemptResult"] = f }
    }
    n[Provenance.key] = provenance.json
    var record = try NotificationRecord(ObjectReader(n, at: path))
    if record.productId == nil { record.productId = productId }
    if record.summary == nil, n["summary"] == nil { record.summary = DeliveryRecord.summary(of: n) }
    items.notifications.append((record, otid))
    items.sources.append(provenance)
  }
}
