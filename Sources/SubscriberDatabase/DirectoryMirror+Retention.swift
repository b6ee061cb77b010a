import DashModel
import Foundation
import CoreValues
import SubscriberStorage
import RetentionMessaging

/// The Retention Messaging configuration in the mirror too, for the dashboard over `subdash --db`.
/// `serve --db` keeps it in the database (`SubscriberDatabase.retentionConfiguration`); the
/// dashboard and `subdash-retention` read it beside the state file (`RetentionSetup.load`), as with
/// a directory `serve DIR` answers for. So the mirror lays the database's document into its
/// directory as `.retention-messaging.json` (0600, atomic), exactly the bytes `serve --db` stored,
/// and rewrites it after each commit of it (NOTIFY on `subdash_configuration`).
extension DirectoryMirror {
  /// `run`, with the configuration written before `ready` (the dashboard opens at `ready` and reads
  /// it then) and kept current until the mirror ends; a lost connection ends the mirror, as for rows.
  public func runWithRetentionConfiguration(_ store: PostgresSubscriberStore, ready: @escaping @Sendable (Int) -> Void) async throws {
    if let why = PrivateDirectory.create(directory) { throw DatabaseError.usage("\(directory): cannot create the directory: \(why)") }
    let database = store.database
    let path = directory + "/" + RetentionSetup.fileName
    try await withThrowingTaskGroup(of: Void.self) { group in
      let written = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
      group.addTask {
        defer { written.continuation.finish() }
        // One call at a time, each reading the latest document: a late write never puts back an older one.
        try await database.followConfiguration(named: SubscriberDatabase.retentionConfigurationName) {
          try Self.writeConfiguration(try await database.retentionConfiguration(), to: path)
          written.continuation.yield(())
        }
        try Task.checkCancellation()
        throw DatabaseError.server("\(database.url.description): the configuration notifications stopped (the connection ended)")
      }
      var first = false
      for await _ in written.stream {
        first = true
        break
      }
      // The follow ended before its first write: its error.
      if !first { try await group.next() }
      group.addTask { try await self.run(store, ready: ready) }
      defer { group.cancelAll() }
      try await group.next()
    }
  }

  /// The document's bytes as the file; no document, no file (a dashboard then shows Apple's plain
  /// cancel page, as for a directory nobody configured). The database never deletes the document,
  /// so only a mirror that starts before anyone configured anything has none.
  static func writeConfiguration(_ bytes: [UInt8]?, to path: String) throws(DatabaseError) {
    guard let bytes else {
      try? FileManager.default.removeItem(atPath: path)
      return
    }
    try DirectoryFiles.writeRetentionConfiguration(bytes, to: PathName.directory(of: path))
  }
}
