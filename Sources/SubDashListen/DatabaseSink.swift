import DashModel
import NotificationReceiver
import SubscriberDatabase

/// `listen --db`: the subscriber's row is changed under its row lock, through the same importer
/// on a private copy of its files, so both sinks follow one set of rules. It lives in the
/// executable, which injects it: the receiver itself never depends on PostgreSQL code.
struct DatabaseSink: SubscriberSink {
  let database: SubscriberDatabase
  let scratch: String
  init(database: SubscriberDatabase, scratch: String) {
    self.database = database
    self.scratch = scratch
  }

  func apply(_ input: ImportInput, verdicts: any SignedDataChecking, originalTransactionId: String, notificationUUID: String) async throws -> Applied {
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
    guard var applied = outcome.applied else { throw SubscriberBusy(file: name, waited: FileLock.maxWait) }
    applied.subscriber = "\(name) in \(database.url.description)"
    return applied
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
      guard case .done(let applied) = attempt else { throw SubscriberBusy(file: name, waited: FileLock.maxWait) }
      outcome.applied = applied
      if applied.changedNothing { return nil }
      return try DirectoryFiles.read(work).subscribers.first { $0.name == name }
    }
  }
}

/// What the change inside the row's transaction decided, carried out of it.
final class OutcomeBox: @unchecked Sendable {
  var applied: Applied?
  var refusal: StateFileError?
}
