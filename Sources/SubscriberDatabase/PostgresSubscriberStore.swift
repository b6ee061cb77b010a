import DashModel
import Foundation
import CoreValues
import SubscriberStorage

/// The team database as a `SubscriberStore`: the same four operations, the same promises and the
/// same typed results as a directory, so a caller cannot tell the two apart.
///
/// A change is decided exactly as in a directory, by `DirectorySubscriberStore` itself, on a
/// private copy of the row's files laid out while the row is locked (`SubscriberDatabase.update`:
/// advisory lock on the name, `SELECT … FOR UPDATE`, `lock_timeout` = `FileLock.maxWait`); what it
/// wrote is stored back as the row's next version in the same transaction, which NOTIFY announces.
/// One rule set for both stores, and no lost update: the row stays locked from read to store.
public struct PostgresSubscriberStore: SubscriberStore {
  public let database: SubscriberDatabase
  /// A private directory (0700, `PrivateDirectory.makeTemporary`) the copies are made in, one
  /// subdirectory per call.
  public let scratch: String
  /// Called with each row this store wrote, after its transaction committed (`serve --db` keeps
  /// its mirror current with it, so an answer after a write reads that write).
  public var onStored: @Sendable (StoredSubscriber, [String: [UInt8]]) -> Void

  public init(database: SubscriberDatabase, scratch: String, onStored: @escaping @Sendable (StoredSubscriber, [String: [UInt8]]) -> Void = { _, _ in }) {
    self.database = database
    self.scratch = scratch
    self.onStored = onStored
  }

  public func list() async throws(StateFileError) -> [String] {
    do { return try await database.versions().keys.sorted() } catch { throw failure("the subscribers", error) }
  }

  public func get(_ name: String) async throws(StateFileError) -> SubscriberSnapshot? {
    guard StoredSubscriber.isPlainFileName(name) else { throw Self.notAName(name) }
    let row: StoredSubscriber?
    let catalogs: [String: [UInt8]]
    do {
      row = try await database.subscribers(named: [name]).first
      catalogs = try await database.catalogs(named: Set([row?.catalogName].compactMap { $0 }))
    } catch { throw failure(name, error) }
    guard let row else { return nil }
    // The state is laid out and read as a directory store reads it. The history stays the row's
    // bytes, decoded only if the caller asks (a snapshot outlives the copy, which is removed here).
    let work = try workDirectory(name)
    defer { DirectoryFiles.remove(work) }
    do { try DirectoryFiles.write([row], catalogs: catalogs, to: work) } catch { throw StateFileError(file: name, message: error.description) }
    guard let snapshot = try DirectorySubscriberStore(directory: work).get(name) else { return nil }
    return SubscriberSnapshot(name: name, state: snapshot.state, journal: row.journal)
  }

  /// Each subscriber a writer commits (NOTIFY), as it commits. Removal is never announced: no
  /// SubDash writer removes a row.
  public func follow() -> AsyncStream<SubscriberEvent> {
    follow(onListening: {}, onEnd: { _ in })
  }

  /// `follow()` with what a reader that also reads the rows needs (`DirectoryMirror`):
  /// `onListening` runs once LISTEN is in effect, so rows read after it cannot miss a commit
  /// (a commit in between is also announced); `onEnd` runs once when following stops other than by
  /// the caller's cancelling, with why (a lost connection), before the stream finishes, so the
  /// reader can tell "no more changes" from "no longer told of changes".
  public func follow(onListening: @escaping @Sendable () -> Void,
                     onEnd: @escaping @Sendable (DatabaseError) -> Void) -> AsyncStream<SubscriberEvent> {
    let database = database
    return AsyncStream { continuation in
      let task = Task {
        do {
          try await database.follow(onListening: onListening) { name in
            guard StoredSubscriber.isPlainFileName(name) else { return }
            continuation.yield(.changed(name))
          }
          if !Task.isCancelled { onEnd(.server("\(database.url.description): the notifications stopped (the connection ended)")) }
        } catch {
          if !Task.isCancelled { onEnd(SubscriberDatabase.describe(error, database.url)) }
        }
        continuation.finish()
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }

  public func update<Refusal: Error>(
    _ name: String,
    _ change: @Sendable (SubscriberSnapshot?) throws(Refusal) -> SubscriberEdit
  ) async -> UpdateResult<Refusal> {
    guard StoredSubscriber.isPlainFileName(name) else { return .failed(Self.notAName(name)) }
    let work: String
    do { work = try workDirectory(name) } catch { return .failed(error) }
    defer { DirectoryFiles.remove(work) }
    let outcome = Outcome<Refusal>()
    do {
      let stored = try await database.updateWithCatalogs(name) { current, catalogs in
        try DirectoryFiles.reset(work)
        if let current { try DirectoryFiles.write([current], catalogs: catalogs, to: work) }
        // The copy is this call's alone: its lock is free, and the directory store's rules decide.
        let result = DirectorySubscriberStore(directory: work).update(name, wait: .bounded, change)
        outcome.result = result
        guard result.change != nil else { return nil }
        let read = try DirectoryFiles.read(work)
        guard let next = read.subscribers.first(where: { $0.name == name }) else { throw DatabaseError.file("\(name): the change left no state file") }
        outcome.catalogs = read.catalogs
        // A new subscriber's catalog goes into the catalogs table (refused there if another file of
        // that name is stored), in the same transaction as the row.
        return (StoredSubscriber(name: name, document: next.document, journal: next.journal, catalogName: next.catalogName), read.catalogs)
      }
      if let stored, outcome.result?.change != nil { onStored(stored, outcome.catalogs) }
    } catch let e as DatabaseError {
      if case .busy(let why) = e { return .busy(StateFileError(file: name, message: why, kind: .busy)) }
      return .failed(StateFileError(file: name, message: e.description))
    } catch {
      return .failed(failure(name, error))
    }
    return outcome.result ?? .failed(StateFileError(file: name, message: "the database stored nothing and said nothing; nothing was changed"))
  }

  private func workDirectory(_ name: String) throws(StateFileError) -> String {
    let work = scratch + "/" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
    if let why = PrivateDirectory.create(work) { throw StateFileError(file: name, message: "cannot make a private working directory: \(why)") }
    return work
  }

  private func failure(_ what: String, _ error: any Error) -> StateFileError {
    if let e = error as? StateFileError { return e }
    let text = (error as? DatabaseError)?.description ?? SubscriberDatabase.describe(error, database.url).description
    return StateFileError(file: what, message: text)
  }

  static func notAName(_ name: String) -> StateFileError {
    StateFileError(file: LogText.clip(name, limit: 80), message: "is not a subscriber's file name (a plain, visible file name); nothing was changed")
  }
}

/// What the change decided inside the row's transaction, carried out of it.
private final class Outcome<Refusal: Error>: @unchecked Sendable {
  var result: UpdateResult<Refusal>?
  var catalogs: [String: [UInt8]] = [:]
}
