import DashModel
import SubscriberStorage
import SubscriberImport
import CoreValues

/// Where received notifications go: a directory of state files, or a team database (that sink is
/// the `listen` executable's, given `--db`: this target never loads PostgreSQL code).
public protocol SubscriberSink: Sendable {
  /// Applies one notification body to subscriber `originalTransactionId`, durably, and says what
  /// changed. `payloadDigest` identifies a notification that has no notificationUUID (nil when it
  /// has one): it is stored with it, and a notification already stored with it is not added again.
  func apply(_ input: ImportInput, verdicts: any SignedDataChecking, originalTransactionId: String, payloadDigest: String?) async throws -> Applied
}

/// What one notification did to its subscriber: decided by the importer's counts under the lock,
/// and never read back from the sentence it prints.
public struct Applied: Sendable, Equatable, CustomStringConvertible {
  /// The subscriber as the log names it: `2000000123.json`, or `2000000123.json in postgres://…`.
  public var subscriber: String
  public var created: Bool
  public var newNotifications: Int
  public var newTransactions: Int

  public init(subscriber: String, created: Bool, newNotifications: Int, newTransactions: Int) {
    self.subscriber = subscriber
    self.created = created
    self.newNotifications = newNotifications
    self.newTransactions = newTransactions
  }

  /// The notification was there already (a redelivery): nothing was written.
  public var changedNothing: Bool { newNotifications == 0 && newTransactions == 0 }

  public var description: String {
    if changedNothing { return "already applied to \(subscriber) (redelivery; nothing changed)" }
    return "\(created ? "created" : "applied to") \(subscriber): \(counted(newNotifications, "new notification")), \(counted(newTransactions, "new transaction"))"
  }
}

/// Notifications into any subscriber store, the one write path (`SubscriberStore.update`): the
/// merge is made once, before the hold (decoding and checking the signed data holds no lock), and
/// decided again under the hold against the latest stored subscriber (`Importer.edit`: known
/// transactionIds and notificationUUIDs are never added twice, so a redelivery writes nothing).
/// The store's typed result is mapped to what the receiver answers in one place for every store:
/// written or already held → 200, another environment's data → 409, held by another writer past
/// the bound → 503 with Retry-After (`SubscriberBusy`), anything else → 500.
public struct StoreSink: SubscriberSink {
  public let store: any SubscriberStore
  /// How the log names a subscriber: its file name, or `2000000123.json in postgres://…`.
  let naming: @Sendable (String) -> String

  public init(store: any SubscriberStore, naming: @escaping @Sendable (String) -> String = { $0 }) {
    self.store = store
    self.naming = naming
  }

  public func apply(_ input: ImportInput, verdicts: any SignedDataChecking, originalTransactionId: String, payloadDigest: String?) async throws -> Applied {
    let name = originalTransactionId + ".json"
    var read = try Importer.merge(inputs: [input], options: .init(originalTransactionId: originalTransactionId, checker: verdicts))
    if let payloadDigest {
      for i in read.notifications.indices where read.notifications[i].notificationUUID == nil {
        read.notifications[i].source[NotificationRecord.payloadDigestKey] = .string(payloadDigest)
      }
    }
    let merged = read
    let result = await store.update(name) { (current) throws(StateFileError) -> SubscriberEdit in
      try Importer.edit(merged, current, catalog: nil)
    }
    return try Self.applied(result, name: name, naming: naming)
  }

  /// What the store did, as the receiver reports it; what it did not do, as the error the receiver
  /// answers by kind.
  static func applied(_ result: UpdateResult<StateFileError>, name: String, naming: (String) -> String = { $0 }) throws -> Applied {
    switch result {
    case .created(let c): return Applied(subscriber: naming(name), created: true, newNotifications: c.notifications.count, newTransactions: c.transactions.count)
    case .applied(let c): return Applied(subscriber: naming(name), created: false, newNotifications: c.notifications.count, newTransactions: c.transactions.count)
    case .unchanged(_?): return Applied(subscriber: naming(name), created: false, newNotifications: 0, newTransactions: 0)
    case .unchanged(nil): throw StateFileError(file: name, message: "the notification made no subscriber; nothing was created")
    case .busy: throw SubscriberBusy(file: name, waited: FileLock.maxWait)
    case .refused(let e), .failed(let e): throw e
    }
  }
}

/// `DIR/<originalTransactionId>.json` through the directory store, its blocking file work on the
/// receiver's own threads (`BlockingWorkers`), never on Swift's cooperative threads, where a
/// waiting lock would stall every other request.
///
/// The lock is only ever tried on those threads, never waited for there: any local user can hold a
/// subscriber's lock file, and eight requests waiting on it would take every thread, so other
/// subscribers' notifications would wait too. A busy lock gives the thread back; the request
/// sleeps (asynchronously, holding nothing) and tries again, for at most `FileLock.maxWait`
/// (`DirectorySubscriberStore`'s async `update`), then fails with `SubscriberBusy` (503 and
/// Retry-After) having written nothing.
public struct DirectorySink: SubscriberSink {
  public let directory: String
  private let sink: StoreSink

  public init(directory: String) {
    self.directory = directory
    let workers = BlockingWork { work in (try? await BlockingWorkers.shared.run(work)) != nil }
    var store = DirectorySubscriberStore(directory: directory, blockingWork: workers)
    store.keepsSpareFiles = true
    sink = StoreSink(store: store)
  }

  public func apply(_ input: ImportInput, verdicts: any SignedDataChecking, originalTransactionId: String, payloadDigest: String?) async throws -> Applied {
    try await sink.apply(input, verdicts: verdicts, originalTransactionId: originalTransactionId, payloadDigest: payloadDigest)
  }
}

/// A subscriber another writer kept locked past the bound: nothing was written, and the same
/// request later may succeed, so the receiver answers 503 with Retry-After instead of 500.
public struct SubscriberBusy: Error, CustomStringConvertible, Equatable {
  /// What the sender is told to wait before retrying: the lock's own bound, so a retry does not
  /// arrive while a save that merely ran long is still holding it.
  public static let retryAfterSeconds = Int(FileLock.maxWait.components.seconds)
  public let file: String
  public let waited: Duration
  public init(file: String, waited: Duration) {
    self.file = file
    self.waited = waited
  }
  public var description: String {
    "\(file) is locked by another process (more than \(waited.components.seconds) s); nothing was written, retry later"
  }
}
