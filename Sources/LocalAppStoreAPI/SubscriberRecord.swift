import DashModel
import Foundation

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
    var entries: [Journal.Entry] = []
    do {
      // Inline history has no interleaving: transactions first, then the notifications by date.
      entries += try state.subscriber.transactions.typed().map(Journal.Entry.transaction)
    } catch { throw .unreadable(path, "\(error)") }
    let inlineNotifications = state.subscriber.notifications
    if let journal = state.document.journal {
      do {
        entries += try Journal.readAll(path: PathName.directory(of: path) + "/" + journal.file, committedBytes: journal.committedBytes)
      } catch { throw .unreadable(path, error.description) }
    }
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
    var paired: [(NotificationRecord, TransactionPayload?)] = []
    for n in inlineNotifications {
      let t = history.last { ($0.purchaseDate ?? Instant(ms: 0)) <= (n.signedDate ?? Instant(ms: .greatestFiniteMagnitude)) }
      paired.append((n, t))
    }
    // Inline transactions come first in `entries`, so journal notifications find the newest
    // transaction before them wherever it was written.
    var intake = DeliveryIntake(lastTransaction: nil)
    paired += intake.take(entries)
    notifications = paired.map { n, t in (notification: n, transaction: t ?? history.last) }
  }

  var environment: AppStoreEnvironment { state.subscriber.environment ?? .sandbox }
  var bundleId: String? { state.subscriber.latestTransaction?.bundleId ?? transactions.last?.bundleId }

  func owns(transactionId id: String) -> Bool {
    state.subscriber.originalTransactionId == id || transactions.contains { $0.transactionId == id || $0.originalTransactionId == id }
  }
}

/// The state files of a directory (as `listen` writes them: `<originalTransactionId>.json`).
struct SubscriberDirectory {
  let path: String

  /// The subscriber that owns `transactionId` in `environment`: its own file first, then a scan.
  func subscriber(owning transactionId: String, environment: AppStoreEnvironment) throws(APIFailure) -> SubscriberRecord {
    guard !transactionId.isEmpty, transactionId.count <= 30, transactionId.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      throw .invalidTransactionId
    }
    let direct = path + "/" + transactionId + ".json"
    if let state = try? StateFile.load(path: direct) {
      let record = try SubscriberRecord(path: direct, state: state)
      if record.environment == environment { return record }
    }
    for file in stateFiles() where file != direct {
      guard let state = try? StateFile.load(path: file), state.subscriber.environment ?? .sandbox == environment else { continue }
      let record = try SubscriberRecord(path: file, state: state)
      if record.owns(transactionId: transactionId) { return record }
    }
    throw .transactionNotFound
  }

  /// The subscriber a fetch by order ID wrote (`fetchedFrom.orderId`), if any.
  func subscriber(orderId: String) -> SubscriberRecord? {
    for file in stateFiles() {
      guard let state = try? StateFile.load(path: file), FetchOrigin(document: state.document)?.orderId == orderId else { continue }
      return try? SubscriberRecord(path: file, state: state)
    }
    return nil
  }

  /// Visible `*.json` files, sorted so answers do not depend on the directory's order.
  func stateFiles() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
  }
}
