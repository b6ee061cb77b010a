import DashModel

/// Where received notifications go: a directory of state files, or a team database (that sink is
/// the `listen` executable's, given `--db`: this target never loads PostgreSQL code).
public protocol SubscriberSink: Sendable {
  /// Applies one notification body to subscriber `originalTransactionId`, durably, and says what
  /// changed.
  func apply(_ input: ImportInput, verdicts: any SignedDataChecking, originalTransactionId: String, notificationUUID: String) async throws -> Applied
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

/// `DIR/<originalTransactionId>.json`, created when new, written by `Importer.write` (locked,
/// atomic, journalled, fsynced before it returns). Blocking file work runs on the receiver's own
/// threads (`BlockingWorkers`), never on Swift's cooperative threads, where a waiting lock would
/// stall every other request.
///
/// The lock is only ever tried on those threads, never waited for there: any local user can hold a
/// subscriber's lock file, and eight requests waiting on it would take every thread, so other
/// subscribers' notifications would wait too. A busy lock gives the thread back; the request
/// sleeps (asynchronously, holding nothing) and tries again, for at most `FileLock.maxWait`, then
/// fails with `SubscriberBusy` (503 and Retry-After) having written nothing.
public struct DirectorySink: SubscriberSink {
  public let directory: String
  public init(directory: String) { self.directory = directory }

  public func apply(_ input: ImportInput, verdicts: any SignedDataChecking, originalTransactionId: String, notificationUUID: String) async throws -> Applied {
    let path = directory + "/" + originalTransactionId + ".json"
    let clock = ContinuousClock()
    let deadline = clock.now + FileLock.maxWait
    // The merge is made once, with the first try; a retry only writes it.
    var attempt = try await BlockingWorkers.shared.run {
      try Self.applyNow(input, verdicts: verdicts, path: path, otid: originalTransactionId)
    }
    var pause: Duration = .milliseconds(2)
    while case .busy(let merged) = attempt {
      guard clock.now + pause < deadline else { throw SubscriberBusy(file: PathName.fileName(of: path), waited: FileLock.maxWait) }
      try? await Task.sleep(for: pause)
      pause = min(pause * 2, .milliseconds(100))
      attempt = try await BlockingWorkers.shared.run { try Self.write(merged, path: path) }
    }
    guard case .done(let applied) = attempt else { throw SubscriberBusy(file: PathName.fileName(of: path), waited: FileLock.maxWait) }
    return applied
  }

  /// A write either done (what it changed) or not started because another writer holds the lock.
  public enum Attempt: Sendable {
    case done(Applied)
    case busy(ImportMerge)
  }

  /// The redelivery check happens under the file's lock, inside the importer's merge (known
  /// notificationUUIDs are never added twice), and a merge that adds nothing writes nothing: no
  /// unlocked read of the subscriber and its whole journal before the locked one.
  public static func applyNow(_ input: ImportInput, verdicts: any SignedDataChecking, path: String, otid: String,
                       lockWait: FileLock.Wait = .tryOnce) throws -> Attempt {
    let merged = try Importer.merge(inputs: [input], options: .init(originalTransactionId: otid, checker: verdicts))
    return try write(merged, path: path, lockWait: lockWait)
  }

  static func write(_ merged: ImportMerge, path: String, lockWait: FileLock.Wait = .tryOnce) throws -> Attempt {
    let name = PathName.fileName(of: path)
    let written: Importer.Written
    do {
      written = try Importer.write(merged, to: path, catalog: nil, lockWait: lockWait)
    } catch {
      if error.kind == .busy { return .busy(merged) }
      throw error
    }
    // The notification itself is in every merge, so nothing new means its UUID was there.
    return .done(Applied(subscriber: name, created: written.created, newNotifications: written.newNotifications, newTransactions: written.newTransactions))
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
