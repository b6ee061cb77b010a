// libFuzzer entry. Built by Fuzz/run.sh with `swiftc -sanitize=fuzzer,address` over DashModel's
// sources, so one binary covers the whole model. The first byte picks what the rest is:
//   0x01  a typed offer code        normalize never crashes and is idempotent
//   0x02  a date, span or period    the time parsers never crash
//   0x03  a scenario script         the scenario parser never crashes
//   0x04  JSON                      parsed in pieces on other threads (ArrayPieces), the outcome
//                                   is the single thread's: the same value or the same error
//   0x05  JSON                      parsed with a projection (JSONProjection, as `show` reads a
//                                   history), alone and in pieces: the error without it, or the
//                                   same value with the projected array's elements cut down; and
//                                   with a reader of those elements: every one read, once, in order
//   0x06  a history journal         `Journal.held` (bytes searched, only the lines a key occurs in
//                                   decoded) never crashes and, where every line decodes, holds
//                                   exactly the keys a full read of the history finds
//   0x07  a spent-nonce ledger      `OfferNonceLedger.parse` never crashes; what reads writes back
//                                   to the same ledger, and spending on it (a nonce it holds, a
//                                   new one, at instants around its entries) gives a ledger that
//                                   reads again and refuses that nonce next
//   else  a state file              see below
//
// A state file (its `catalogFile`, if any, resolves to the small catalog below) must never crash
// the loader; whatever loads must also: survive write → re-read unchanged; derive a lifecycle
// report at several instants; take every customer action and simulator command without crashing;
// and every change they produce must itself write to a file that loads again. That last property
// is the one a support tool lives by: SubDash never writes a file it cannot open.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  switch bytes.first {
  case 0x01: fuzzOfferCode(Array(bytes.dropFirst()))
  case 0x02: fuzzTimeText(Array(bytes.dropFirst()))
  case 0x03: fuzzScenario(Array(bytes.dropFirst()))
  case 0x04: fuzzPieces(Array(bytes.dropFirst()))
  case 0x05: fuzzProjection(Array(bytes.dropFirst()))
  case 0x06: fuzzJournalHeld(Array(bytes.dropFirst()))
  case 0x07: fuzzNonceLedger(Array(bytes.dropFirst()))
  default: fuzzStateFile(bytes)
  }
  return 0
}

private let fuzzCatalogText = """
  { "subscriptionGroups": [ { "id": "G", "name": "Pass", "subscriptions": [
    { "productID": "p.monthly", "groupNumber": 2, "recurringSubscriptionPeriod": "P1M", "displayPrice": "4.99",
      "introductoryOffer": { "paymentMode": "free", "subscriptionPeriod": "P1W" } },
    { "productID": "p.yearly", "groupNumber": 1, "recurringSubscriptionPeriod": "P1Y", "displayPrice": "49.99" },
    { "productID": "p.other", "groupNumber": 2, "recurringSubscriptionPeriod": "P1Y", "displayPrice": "39.99" } ] } ] }
  """

private let fuzzCatalog: Catalog = {
  let json = try! JSONParser.parse(Array(fuzzCatalogText.utf8))
  return try! StoreKitReader.read(ObjectReader(json, at: .root))
}()

private func decode(_ bytes: [UInt8], projection: JSONProjection? = nil) -> Result<SubscriptionState, StateFileError> {
  let resolve: (String) throws(StateFileError) -> Catalog = { _ throws(StateFileError) in fuzzCatalog }
  do throws(StateFileError) {
    return .success(try StateFile.decode(bytes, fileName: "fuzz.json", projection: projection, catalogFile: resolve))
  } catch {
    return .failure(error)
  }
}

/// Keys asked: a few fixed ones and the input's own quoted strings; once only plain ones, few enough
/// for the byte search (`Journal.held`'s fast path), once all of them (its full read).
private func fuzzJournalHeld(_ bytes: [UInt8]) {
  var quoted: [String] = []
  for (k, part) in bytes.split(separator: UInt8(ascii: "\""), omittingEmptySubsequences: false).enumerated() where k % 2 == 1 && quoted.count < 8 {
    quoted.append(String(decoding: part, as: UTF8.self))
  }
  let searched = Array((["1", "2000", "uuid-1"] + quoted).filter(Journal.isPlainKey).prefix(Journal.searchedKeysLimit / 2))
  let all = Set(["1", "2000", "uuid-1", "K", "é"] + quoted)
  for asked in [Set(searched), all] {
    let keys = HistoryKeys(transactionIds: asked, notificationUUIDs: asked)
    let fast: Result<HistoryKeys, StateFileError>
    do throws(StateFileError) { fast = .success(try Journal.held(keys, inJournal: bytes[...], file: "fuzz.journal.jsonl")) } catch { fast = .failure(error) }
    let full: [Journal.Entry]
    do throws(StateFileError) { full = try Journal.decodeAll(bytes[...], file: "fuzz.journal.jsonl") } catch { return }
    guard case .success(let held) = fast, held == keys.held(in: full) else {
      fatalError("Journal.held disagrees with a full read of the history: \(fast) against \(keys.held(in: full))")
    }
  }
}

private func fuzzPieces(_ bytes: [UInt8]) {
  func outcome(_ b: UnsafeBufferPointer<UInt8>, piecesFrom: Int, cores: Int) -> Result<JSON, JSONSyntaxError> {
    do throws(JSONSyntaxError) {
      return .success(try JSONParser.parse(b, maxDepth: 16, piecesFrom: piecesFrom, cores: cores).json)
    } catch {
      return .failure(error)
    }
  }
  bytes.withUnsafeBufferPointer { b in
    let alone = outcome(b, piecesFrom: Int.max, cores: 1)
    for cores in [2, 5] where outcome(b, piecesFrom: 0, cores: cores) != alone {
      fatalError("parsed in pieces (\(cores) cores), the outcome differs from one thread's")
    }
  }
}

private func fuzzProjection(_ bytes: [UInt8]) {
  let projection = JSONProjection(arrayPath: ["s", "t"], keep: ["a", "b"], signature: ["a"])
  func outcome(_ b: UnsafeBufferPointer<UInt8>, _ p: JSONProjection?, piecesFrom: Int, cores: Int) -> Result<JSON, JSONSyntaxError> {
    do throws(JSONSyntaxError) {
      return .success(try JSONParser.parse(b, maxDepth: 16, piecesFrom: piecesFrom, cores: cores, projection: p).json)
    } catch {
      return .failure(error)
    }
  }
  /// `cut` is `full` but for each object element of the projected array, which is either whole
  /// (it had a key that is escaped or not ASCII) or has exactly its kept members.
  func cutDown(_ full: JSON, _ cut: JSON, _ path: ArraySlice<String>) -> Bool {
    guard let key = path.first else {
      guard case .array(let f) = full, case .array(let c) = cut, f.count == c.count else { return full == cut }
      return zip(f, c).allSatisfy { f, c in
        guard c != f else { return true }
        guard case .object(let o) = f else { return false }
        return c == .object(JSONObject(o.entries.filter { projection.keep.contains($0.key) }.map { ($0.key, $0.value) }))
      }
    }
    guard case .object(let f) = full, case .object(let c) = cut, f.keys == c.keys else { return full == cut }
    return f.entries.allSatisfy { k, v in k == key ? cutDown(v, c[k] ?? .null, path.dropFirst()) : c[k] == v }
  }
  /// The parse with a reader of the projected array, its elements put back where they were read.
  let reading = JSONProjection(arrayPath: ["s", "t"], keep: ["a", "b"], signature: ["a"], reader: Collecting())
  func reassembled(_ b: UnsafeBufferPointer<UInt8>, piecesFrom: Int, cores: Int) -> Result<JSON, JSONSyntaxError> {
    do throws(JSONSyntaxError) {
      let parsed = try JSONParser.parse(b, maxDepth: 16, piecesFrom: piecesFrom, cores: cores, projection: reading)
      guard case .object(var root) = parsed.json, case .object(var s)? = root["s"], s["t"] == .array([]) else {
        if !parsed.projectedRuns.isEmpty { fatalError("a reader read elements the document does not place") }
        return .success(parsed.json)
      }
      s["t"] = .array(parsed.projectedRuns.flatMap { ($0 as? Collecting.Run)?.items ?? [.string("a run of another reader")] })
      root["s"] = .object(s)
      return .success(.object(root))
    } catch {
      return .failure(error)
    }
  }
  bytes.withUnsafeBufferPointer { b in
    let full = outcome(b, nil, piecesFrom: Int.max, cores: 1)
    for (piecesFrom, cores) in [(Int.max, 1), (0, 2), (0, 5)] {
      let projected = outcome(b, projection, piecesFrom: piecesFrom, cores: cores)
      switch (full, projected) {
      case (.failure(let a), .failure(let c)) where a == c: break
      case (.success(let a), .success(let c)) where cutDown(a, c, projection.arrayPath[...]): break
      default: fatalError("parsed with a projection (\(cores) cores), the outcome is not the full one's cut down")
      }
      if reassembled(b, piecesFrom: piecesFrom, cores: cores) != projected {
        fatalError("parsed with a reader of the projected array (\(cores) cores), its elements are not the projection's")
      }
    }
  }
}

/// Keeps the elements it is given (see `fuzzProjection`).
private struct Collecting: ProjectedElementReader {
  func makeRun() -> any ProjectedRun { Run() }
  final class Run: ProjectedRun {
    var items: [JSON] = []
    func add(_ element: JSON) { items.append(element) }
  }
}

/// `show` and the dashboard read the inline history while the file is parsed
/// (InlineHistory+Viewing.swift): the same summary and story as the file read whole, or a failure
/// where it fails.
private func checkViewing(_ bytes: [UInt8], whole: Result<SubscriptionState, StateFileError>) {
  switch (whole, decode(bytes, projection: InlineHistory.storyProjection)) {
  case (.failure, .failure): return
  case (.success(let w), .success(let v)):
    let wh = CustomerHistory.load(w, statePath: "/nonexistent/fuzz.json"), vh = CustomerHistory.load(v, statePath: "/nonexistent/fuzz.json")
    if w.subscriber.transactions.summary != v.subscriber.transactions.summary || w.subscriber.transactions.count != v.subscriber.transactions.count
      || wh.transactions != vh.transactions || wh.skippedEntries != vh.skippedEntries {
      fatalError("loaded for viewing, the inline history tells another story than read whole")
    }
  default: fatalError("loaded for viewing and read whole, one fails and the other does not")
  }
}

private func fuzzStateFile(_ bytes: [UInt8]) {
  let whole = decode(bytes)
  checkViewing(bytes, whole: whole)
  guard case .success(let state) = whole else { return }
  // Round trip: what SubDash writes must load again, to the same document.
  let written = JSONWriter.write(state.document.json)
  guard case .success(let again) = decode(written) else {
    fatalError("a decodable document did not survive a write/read round trip")
  }
  if again.document.json != state.document.json { fatalError("round trip changed the document") }

  // The inline history as one ordered list (`transactionsBefore`, else dates, from the file): each
  // entry exactly once, each list in its own order, whatever the counts say.
  if let ordered = try? state.subscriber.inlineEntriesInOrder() {
    var t = 0, n = 0
    for e in ordered {
      switch e {
      case .transaction: t += 1
      case .notification(let x):
        guard n < state.subscriber.notifications.count, x == state.subscriber.notifications[n] else { fatalError("inline order: notification \(n) out of place") }
        n += 1
      }
    }
    if t != state.subscriber.transactions.count || n != state.subscriber.notifications.count { fatalError("inline order lost or doubled an entry") }
  }
  _ = try? state.subscriber.transactions.transactionIds()

  var instants = [Instant(ms: 1_800_000_000_000)]
  if case .number(let n)? = state.document.simulation?["now"], let ms = Double(n), ms.isFinite { instants.append(Instant(ms: ms)) }
  if let e = state.subscriber.latestTransaction?.expiresDate { instants += [e - Span(ms: 1), e, e + Span(ms: 1)] }
  for now in instants { _ = Lifecycle.derive(state, at: now) }
  let now = instants.count > 1 ? instants[1] : instants[0]

  var changes: [Change] = []
  var actions: [PlanAction] = [.setAutoRenew(true), .setAutoRenew(false)]
  for p in state.catalog.allSubscriptions.prefix(4) {
    actions += [.upgrade(toProductId: p.productID), .downgrade(toProductId: p.productID), .crossgrade(toProductId: p.productID)]
  }
  for batch in state.document.offerCodes.prefix(2) { actions.append(.redeemOfferCode(batch.code ?? batch.codes.first ?? "")) }
  for offer in state.allWinBackOffers.prefix(2) { actions.append(.acceptWinBack(offerId: offer.offerId)) }
  for a in actions {
    _ = Actions.preview(a, in: state, at: now)
    if case .success(let c) = Actions.apply(a, to: state, at: now) { changes.append(c) }
  }
  let commands: [SimCommand] = [
    .advanceToNextEvent, .advance(Span(ms: 86_400_000)), .failNextRenewal, .resolveBillingIssue, .expireNow, .refund,
    .requestPriceIncrease, .consentPriceIncrease, .declinePriceIncrease, .approveAskToBuy, .declineAskToBuy,
  ]
  for cmd in commands {
    if case .success(let c) = Simulator.apply(cmd, to: state, at: now) { changes.append(c) }
  }
  for c in changes {
    let bytes = JSONWriter.write(c.state.document.json)
    if case .failure(let e) = decode(bytes) {
      fatalError("a change (\(c.message)) produced a file that does not load: \(e)")
    }
    for t in c.transactions { _ = Journal.encode([.transaction(t)]) }
  }
}

private func fuzzOfferCode(_ bytes: [UInt8]) {
  let typed = String(decoding: bytes, as: UTF8.self)
  let normalized = OfferCodeBatch.normalize(typed)
  if OfferCodeBatch.normalize(normalized) != normalized { fatalError("normalize is not idempotent for \(bytes)") }
}

private func fuzzTimeText(_ bytes: [UInt8]) {
  let text = String(decoding: bytes, as: UTF8.self)
  _ = try? ISOPeriod(parsing: text)
  _ = try? ISOPeriod(appStoreConnectName: text)
  _ = try? Format.parseDate(text)
  _ = try? Format.parseSpan(text)
}

private func fuzzScenario(_ bytes: [UInt8]) {
  _ = try? ScenarioParser.parse(String(decoding: bytes, as: UTF8.self), fileName: "fuzz.scenario")
}

private func fuzzNonceLedger(_ bytes: [UInt8]) {
  guard let ledger = try? OfferNonceLedger.parse(bytes, file: "fuzz.jsonl") else { return }
  guard (try? OfferNonceLedger.parse(ledger.bytes, file: "fuzz.jsonl")) == ledger else {
    fatalError("an offer-nonce ledger did not read back as written")
  }
  let window = Span(ms: 86_460_000)
  var nonces = ["4c5d2d47-1f0a-4d4e-9d7a-0a4a3c1f2b11"]
  var instants = [Instant(ms: 1_795_000_000_000), Instant(ms: 1e300), Instant(ms: -1e300)]
  if let first = ledger.entries.first {
    nonces.append(first.nonce.uppercased())
    instants += [first.spentAt, first.spentAt + window, first.spentAt + window + Span(ms: 1)]
  }
  for nonce in nonces {
    for now in instants {
      var next = ledger
      _ = next.spend(nonce, originalTransactionId: "1", at: now, window: window)
      guard let again = try? OfferNonceLedger.parse(next.bytes, file: "fuzz.jsonl"), again == next else {
        fatalError("a ledger after a spend did not read back")
      }
      var twice = next
      if case .fresh = twice.spend(nonce, originalTransactionId: "2", at: now, window: window) {
        fatalError("a nonce just spent was accepted again")
      }
    }
  }
}
