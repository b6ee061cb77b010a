import DashModel
import SubscriberDatabase

/// Where received notifications go: a directory of state files, or a team database.
public protocol SubscriberSink: Sendable {
  /// Applies one notification body to subscriber `originalTransactionId`, durably, and says what
  /// changed ("applied to 2000000123.json: 1 new notification" / "already applied (redelivery)").
  func apply(_ input: ImportInput, verdicts: any SignedDataChecking, originalTransactionId: String, notificationUUID: String) async throws -> String
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

  public func apply(_ input: ImportInput, verdicts: any SignedDataChecking, originalTransactionId: String, notificationUUID: String) async throws -> String {
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
    guard case .done(let text) = attempt else { throw SubscriberBusy(file: PathName.fileName(of: path), waited: FileLock.maxWait) }
    return text
  }

  /// A write either done (what it changed) or not started because another writer holds the lock.
  enum Attempt: Sendable {
    case done(String)
    case busy(ImportMerge)
  }

  /// The redelivery check happens under the file's lock, inside the importer's merge (known
  /// notificationUUIDs are never added twice), and a merge that adds nothing writes nothing: no
  /// unlocked read of the subscriber and its whole journal before the locked one.
  static func applyNow(_ input: ImportInput, verdicts: any SignedDataChecking, path: String, otid: String,
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
    if written.newNotifications == 0 && written.newTransactions == 0 {
      // The notification itself is in every merge, so nothing new means its UUID was there.
      return .done("already applied to \(name) (redelivery; nothing changed)")
    }
    return .done("\(written.created ? "created" : "applied to") \(name): \(counted(written.newNotifications, "new notification")), \(counted(written.newTransactions, "new transaction"))")
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
  public var description: String {
    "\(file) is locked by another process (more than \(waited.components.seconds) s); nothing was written, retry later"
  }
}

/// The team database: the subscriber's row is changed under its row lock, through the same
/// importer on a private copy of its files, so both sinks follow one set of rules.
public struct DatabaseSink: SubscriberSink {
  public let database: SubscriberDatabase
  let scratch: String
  public init(database: SubscriberDatabase, scratch: String) {
    self.database = database
    self.scratch = scratch
  }

  public func apply(_ input: ImportInput, verdicts: any SignedDataChecking, originalTransactionId: String, notificationUUID: String) async throws -> String {
    let name = originalTransactionId + ".json"
    let work = scratch + "/" + notificationUUID.filter { $0.isLetter || $0.isNumber || $0 == "-" } + "-" + String(UInt64.random(in: 0...UInt64.max))
    let outcome = OutcomeBox()
    do {
      try await update(name, work: work, input, verdicts: verdicts, originalTransactionId: originalTransactionId, outcome: outcome)
    } catch DatabaseError.busy {
      // The row lock's wait is bounded by the database (`lock_timeout`), not by a thread here.
      throw SubscriberBusy(file: name, waited: SubscriberDatabase.lockWait)
    } catch {
      // The database wraps what the change threw; a refusal the receiver answers by kind (409 for
      // the other environment) comes back as the importer made it.
      if let refusal = outcome.refusal { throw refusal }
      throw error
    }
    return outcome.text.replacingOccurrences(of: name, with: "\(name) in \(database.url.description)")
  }

  private func update(_ name: String, work: String, _ input: ImportInput, verdicts: any SignedDataChecking,
                      originalTransactionId: String, outcome: OutcomeBox) async throws {
    try await database.update(name) { current in
      try DirectoryFiles.reset(work)
      defer { DirectoryFiles.remove(work) }
      if let current { try DirectoryFiles.write(current, to: work) }
      // The copy is private to this request (its own directory): nothing else takes its lock.
      let attempt: DirectorySink.Attempt
      do {
        attempt = try DirectorySink.applyNow(input, verdicts: verdicts, path: work + "/" + name, otid: originalTransactionId, lockWait: .upTo(FileLock.maxWait))
      } catch let refused as StateFileError where refused.environments != nil {
        outcome.refusal = refused
        throw refused
      }
      guard case .done(let text) = attempt else { throw SubscriberBusy(file: name, waited: FileLock.maxWait) }
      outcome.text = text
      if outcome.text.hasPrefix("already") { return nil }
      return try DirectoryFiles.read(work).subscribers.first { $0.name == name }
    }
  }
}

final class OutcomeBox: @unchecked Sendable {
  var text = ""
  var refusal: StateFileError?
}
