import DashModel
import Foundation
import CoreValues
import SubscriberStorage

/// One subscriber's state file as the API answers from it: the whole history (inline and
/// journal) in the order it was written, each notification with the transaction it concerns.
struct SubscriberRecord {
  let path: String
  let state: SubscriptionState
  /// Every transaction, oldest first, one per transactionId (the latest version of each, so a
  /// refund's revocation shows), the latest transaction included even when the history lacks it.
  let transactions: [TransactionPayload]
  /// Every notification, oldest first, with the transaction as it was when the notification was
  /// written (Apple: history payloads show the state "at original send time").
  let notifications: [(notification: NotificationRecord, transaction: TransactionPayload?)]

  init(path: String, state: SubscriptionState) throws(APIFailure) {
    self.path = path
    self.state = state
    let entries: [Journal.Entry]
    do { entries = try StateFile.historyEntries(state, statePath: path) } catch { throw .unreadable(path, error.description) }
    var order: [String] = []
    var byId: [String: TransactionPayload] = [:]
    for case .transaction(let t) in entries {
      guard let id = t.transactionId else { continue }
      if byId[id] == nil { order.append(id) }
      byId[id] = t
    }
    if let latest = state.subscriber.latestTransaction, let id = latest.transactionId {
      if byId[id] == nil { order.append(id) }
      byId[id] = latest
    }
    let history = order.compactMap { byId[$0] }
    transactions = history
    // Each notification with the transaction as the entries before it left it. A notification
    // without a UUID (a hand-made history's) is listed too, with the newest transaction then.
    var paired: [(NotificationRecord, TransactionPayload?)] = []
    var intake = DeliveryIntake(lastTransaction: nil)
    for entry in entries {
      let taken = intake.take([entry])
      if case .notification(let n) = entry { paired.append((n, taken.first?.transaction ?? intake.lastTransaction)) }
    }
    notifications = paired.map { n, t in (notification: n, transaction: t ?? history.last) }
  }

  var environment: AppStoreEnvironment { state.subscriber.environment ?? .sandbox }
  var bundleId: String? { state.subscriber.latestTransaction?.bundleId ?? transactions.last?.bundleId }

  /// Whether this subscriber is the app's (a file naming no bundle id cannot be told apart, and is).
  func isApp(_ app: String) -> Bool { bundleId.map { $0 == app } ?? true }

  func owns(transactionId id: String) -> Bool {
    state.subscriber.originalTransactionId == id || transactions.contains { $0.transactionId == id || $0.originalTransactionId == id }
  }
}

/// The state files of a directory (as `listen` writes them: `<originalTransactionId>.json`), and
/// which files hold each transaction id and order id. A backend asks by any transaction id (a
/// renewal's, from the app), which names no file: that used to load every file of the directory
/// for each request (4.3 s a lookup in 2,000 subscribers, debug build). The table is learned on
/// the first lookup that misses and kept current by re-reading only the files whose stamp changed
/// since (a stat each); a hit is confirmed on the file as it is now, so a stale entry is never an
/// answer.
///
/// A directory may hold several apps' customers (a team's shared one); the server answers for one
/// app (--bundle-id), and another app's subscriber is not found, as on Apple's servers (4040010),
/// so no request ever reads or writes it.
final class SubscriberDirectory: @unchecked Sendable {
  let path: String
  /// The app the server answers for.
  let bundleId: String
  private let lock = NSLock()
  private struct Indexed {
    var stamp: FileStamp
    var ids: [String]
    var orderId: String?
  }
  private var indexed: [String: Indexed] = [:]
  /// Transaction and original transaction ids, each to the files holding it (sorted).
  private var owners: [String: [String]] = [:]
  private var orders: [String: [String]] = [:]

  init(path: String, bundleId: String) {
    self.path = path
    self.bundleId = bundleId
  }

  /// Whether a state is this app's, in `environment`: what every listing (all notifications, a
  /// mass extension) checks before it reads further.
  func isOurs(_ state: SubscriptionState, in environment: AppStoreEnvironment) -> Bool {
    state.subscriber.environment ?? .sandbox == environment && (state.subscriber.latestTransaction?.bundleId).map { $0 == bundleId } ?? true
  }

  /// Learns the table now, off the caller's thread, so the first lookup by a renewal's id does not
  /// wait for the whole directory to be read (it waits only for what is left of it).
  func learnInBackground() {
    Thread.detachNewThread { [self] in lock.withLock { refresh() } }
  }

  /// The subscriber that owns `transactionId` in `environment`: its own file first, then the table.
  func subscriber(owning transactionId: String, environment: AppStoreEnvironment) throws(APIFailure) -> SubscriberRecord {
    guard !transactionId.isEmpty, transactionId.count <= 30, transactionId.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      throw .invalidTransactionId
    }
    let direct = path + "/" + transactionId + ".json"
    if let state = try? StateFile.load(path: direct) {
      let record = try SubscriberRecord(path: direct, state: state)
      if record.environment == environment && record.isApp(bundleId) { return record }
    }
    lock.lock()
    defer { lock.unlock() }
    if let known = try owner(of: transactionId, environment, skipping: direct) { return known }
    refresh()
    if let known = try owner(of: transactionId, environment, skipping: direct) { return known }
    throw .transactionNotFound
  }

  /// The subscriber whose appTransactionId is `id`, in `environment`, if any. Asked after a lookup
  /// by transaction id missed, through the same table (a miss costs a stat per file, not a read).
  func subscriber(appTransactionId id: String, environment: AppStoreEnvironment) -> SubscriberRecord? {
    guard !id.isEmpty, id.count <= 30, id.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return lock.withLock {
      if let known = appTransactionOwner(id, environment) { return known }
      refresh()
      return appTransactionOwner(id, environment)
    }
  }

  /// The subscriber a fetch by order ID wrote (`fetchedFrom.orderId`), if any.
  func subscriber(orderId: String) -> SubscriberRecord? {
    lock.withLock {
      if let known = ordered(orderId) { return known }
      refresh()
      return ordered(orderId)
    }
  }

  /// Visible `*.json` files, sorted so answers do not depend on the directory's order.
  func stateFiles() -> [String] {
    ((try? StateFileDirectory.names(in: path)) ?? []).map { path + "/" + $0 }
  }

  // MARK: - The table (under the lock)

  private func owner(of id: String, _ environment: AppStoreEnvironment, skipping direct: String) throws(APIFailure) -> SubscriberRecord? {
    for file in owners[id] ?? [] where file != direct {
      guard let state = try? StateFile.load(path: file), state.subscriber.environment ?? .sandbox == environment else { continue }
      let record = try SubscriberRecord(path: file, state: state)
      if record.owns(transactionId: id) && record.isApp(bundleId) { return record }
    }
    return nil
  }

  private func appTransactionOwner(_ id: String, _ environment: AppStoreEnvironment) -> SubscriberRecord? {
    for file in owners[id] ?? [] {
      guard let state = try? StateFile.load(path: file), isOurs(state, in: environment),
            let record = try? SubscriberRecord(path: file, state: state),
            AppTransactionIdentity.id(of: state.subscriber, history: record.transactions, bundleId: record.bundleId ?? bundleId) == id
      else { continue }
      return record
    }
    return nil
  }

  private func ordered(_ orderId: String) -> SubscriberRecord? {
    for file in orders[orderId] ?? [] {
      guard let state = try? StateFile.load(path: file), FetchOrigin(document: state.document)?.orderId == orderId,
            let record = try? SubscriberRecord(path: file, state: state), record.isApp(bundleId) else { continue }
      return record
    }
    return nil
  }

  /// Re-reads the files that are new or changed since they were indexed; forgets removed ones.
  private func refresh() {
    let known = indexed, directory = path
    // The paths `stateFiles()` gives, so every table here names a file the same way.
    let pathOf = { (name: String) in directory + "/" + name }
    guard let found = try? StateFileDirectory.changes(
      in: directory, reported: nil, known: { known[pathOf($0)]?.stamp }, knownNames: known.keys.map(PathName.fileName(of:)))
    else { return }
    for gone in found.removed { forget(pathOf(gone)) }
    for (name, stamp) in found.changed {
      let file = pathOf(name)
      forget(file)
      // The stamp is taken before the read: a write in between makes the next refresh read again.
      // A file that does not read now (mid-replace elsewhere, out of descriptors) is not
      // remembered: the next refresh tries it again.
      guard let state = try? StateFile.load(path: file), let record = try? SubscriberRecord(path: file, state: state) else { continue }
      var ids = Set(record.transactions.flatMap { [$0.transactionId, $0.originalTransactionId] }.compactMap { $0 })
      if let original = state.subscriber.originalTransactionId { ids.insert(original) }
      // The customer's appTransactionId too: the endpoints Apple lets take one (statuses, history,
      // refunds, app transaction) find its file like any other id; `owns` does not count it, so
      // the ones that refuse it (Get Transaction Info, 4000048) still miss.
      if let app = AppTransactionIdentity.id(of: state.subscriber, history: record.transactions, bundleId: record.bundleId ?? bundleId) {
        ids.insert(app)
      }
      let entry = Indexed(stamp: stamp, ids: Array(ids), orderId: FetchOrigin(document: state.document)?.orderId)
      indexed[file] = entry
      for id in entry.ids { owners[id, default: []].insertSorted(file) }
      if let order = entry.orderId { orders[order, default: []].insertSorted(file) }
    }
  }

  private func forget(_ file: String) {
    guard let old = indexed.removeValue(forKey: file) else { return }
    for id in old.ids { owners[id]?.removeAll { $0 == file }; if owners[id]?.isEmpty == true { owners[id] = nil } }
    if let order = old.orderId { orders[order]?.removeAll { $0 == file }; if orders[order]?.isEmpty == true { orders[order] = nil } }
  }
}

private extension Array where Element == String {
  /// Keeps the files in name order, so the first owner found does not depend on indexing order.
  mutating func insertSorted(_ s: String) {
    let i = firstIndex { $0 > s } ?? endIndex
    insert(s, at: i)
  }
}
