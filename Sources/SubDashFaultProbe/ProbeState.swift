#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DashModel
import CoreValues
import SubscriberStorage

/// The state the fault probe writes: one subscriber renewing, each save appending one renewal
/// transaction and its notification to the journal and counting itself in `x-probe-version`.
/// Every version is self-describing, so a checker can tell a complete version from a mix.
enum ProbeState {
  static let catalogName = "probe.storekit"
  static let catalog = """
    { "subscriptionGroups": [ { "id": "G", "name": "Probe", "subscriptions": [
      { "productID": "probe.monthly", "groupNumber": 1, "recurringSubscriptionPeriod": "P1M", "displayPrice": "4.99" } ] } ] }

    """
  static let start = 1_767_225_600_000.0
  static let period = 300_000.0

  static func transaction(_ k: Int) -> TransactionPayload {
    var t = TransactionPayload()
    t.originalTransactionId = Identifiers.transactionId(sequence: 0)
    t.transactionId = Identifiers.transactionId(sequence: k)
    t.productId = "probe.monthly"
    t.purchaseDate = Instant(ms: start + Double(k) * period)
    t.expiresDate = Instant(ms: start + Double(k + 1) * period)
    t.environment = .sandbox
    t.price = 4990
    t.currency = "USD"
    return t
  }

  /// Created as every new subscriber is: through the store, under its lock, with its catalog.
  static func create(at path: String) throws(StateFileError) {
    let doc = JSONObject([
      ("format", .string(DashModelInfo.stateFormat)),
      ("x-probe-version", .int(0)),
      ("subscriber", .object(JSONObject())),
      ("catalogFile", .string(catalogName)),
    ])
    let (store, name) = DirectorySubscriberStore.holding(path)
    switch store.update(name, wait: .bounded, { (_) throws(Never) -> SubscriberEdit in
      .create(NewSubscriber(document: doc, catalog: NewCatalog(name: catalogName, bytes: Array(catalog.utf8)), message: "probe created"))
    }) {
    case .created: return
    case .applied, .unchanged: throw StateFileError(file: name, message: "exists already; the probe starts from a new file")
    case .busy(let e), .failed(let e): throw e
    }
  }

  static func version(_ state: SubscriptionState) -> Int {
    if case .number(let n)? = state.document.source["x-probe-version"], let v = Int(n) { return v }
    return -1
  }

  /// One renewal through the real write path.
  static func saveOne(at path: String) throws(StateFileError) {
    try StateFile.update(path: path) { (state) throws(StateFileError) in
      let k = version(state)
      let t = transaction(k)
      var next = state
      next.subscriber.latestTransaction = t
      next.document.source["x-probe-version"] = .int(k + 1)
      let note = NotificationRecord(type: k == 0 ? NotificationType.subscribed : .didRenew, uuid: "probe-\(k)", signedDate: t.purchaseDate, status: .active)
      return Change(state: next, transactions: [t], notifications: [note], message: "version \(k + 1)")
    }
  }

  struct CheckFailure: Error, CustomStringConvertible, ExpressibleByStringInterpolation {
    var description: String
    init(stringLiteral value: String) { description = value }
    init(stringInterpolation: DefaultStringInterpolation) { description = String(stringInterpolation: stringInterpolation) }
  }

  struct Verified {
    var version: Int
    var committedBytes: Int64
    var leftoverBytes: Int64
  }

  /// The file loads; it is one complete version N; its history (inline entries first, then the
  /// journal's committed part) holds exactly the 2N entries of versions 1…N, in order; the
  /// journal's summary agrees. A young file's history is inline (`StateFile.inlineHistoryLimit`):
  /// its N transactions and N notifications, and no journal yet.
  static func check(_ path: String) -> Result<Verified, CheckFailure> {
    let state: SubscriptionState
    do { state = try StateFile.load(path: path) } catch { return .failure("does not load: \(error)") }
    let n = version(state)
    guard n >= 0 else { return .failure("no x-probe-version") }
    let inlineTransactions: [TransactionPayload]
    do { inlineTransactions = try state.subscriber.transactions.typed() } catch { return .failure("version \(n): inline history: \(error)") }
    let inlineNotifications = state.subscriber.notifications
    if n == 0 {
      return state.document.journal == nil && state.subscriber.latestTransaction == nil && inlineTransactions.isEmpty && inlineNotifications.isEmpty
        ? .success(Verified(version: 0, committedBytes: 0, leftoverBytes: 0)) : .failure("version 0 with history")
    }
    guard state.subscriber.latestTransaction?.json == transaction(n - 1).json else { return .failure("version \(n): latestTransaction is not renewal \(n - 1)") }
    let inline = inlineTransactions.count
    guard inlineNotifications.count == inline, inline <= n else {
      return .failure("version \(n): inline history holds \(inline) transactions and \(inlineNotifications.count) notifications")
    }
    for k in 0..<inline {
      guard inlineTransactions[k].transactionId == transaction(k).transactionId else { return .failure("version \(n): inline transaction \(k) is not renewal \(k)") }
      guard inlineNotifications[k].notificationUUID == "probe-\(k)" else { return .failure("version \(n): inline notification \(k) is not notification \(k)") }
    }
    guard let j = state.document.journal else {
      return inline == n ? .success(Verified(version: n, committedBytes: 0, leftoverBytes: 0))
        : .failure("version \(n) without a journal and \(inline) inline transactions")
    }
    let dir = PathName.directory(of: path)
    let entries: [Journal.Entry]
    do { entries = try Journal.readAll(path: dir + "/" + j.file, committedBytes: j.committedBytes) } catch {
      return .failure("version \(n): journal: \(error)")
    }
    let journaled = n - inline
    guard entries.count == 2 * journaled else { return .failure("version \(n): journal holds \(entries.count) committed entries, expected \(2 * journaled)") }
    for i in 0..<journaled {
      let k = inline + i
      guard case .transaction(let t) = entries[2 * i], t.transactionId == transaction(k).transactionId else {
        return .failure("version \(n): journal entry \(2 * i) is not renewal \(k)")
      }
      guard case .notification(let note) = entries[2 * i + 1], note.notificationUUID == "probe-\(k)" else {
        return .failure("version \(n): journal entry \(2 * i + 1) is not notification \(k)")
      }
    }
    guard j.summary.transactionCount == journaled, j.summary.notificationCount == journaled else { return .failure("version \(n): summary counts disagree") }
    var st = stat()
    let size: Int64 = stat(dir + "/" + j.file, &st) == 0 ? Int64(st.st_size) : 0
    return .success(Verified(version: n, committedBytes: j.committedBytes, leftoverBytes: size - j.committedBytes))
  }
}
