import LocalAppStoreAPI
import SubscriberDatabase

/// `serve --db`: the Retention Messaging configuration (messages, default messages, realtime URL)
/// is a document in the team database (`subdash_configuration`), changed under its lock as rows
/// are, so it outlives the server and every `serve --db` of the team sees the same one.
/// A dashboard over `subdash --db` reads the same document, laid into its mirror directory by
/// `subdash db mirror` (`DirectoryMirror.runWithRetentionConfiguration`).
struct RetentionInDatabase: RetentionConfigurationStorage {
  let database: SubscriberDatabase
  var place: String { database.url.description }

  func read() async throws -> [UInt8]? { try await database.retentionConfiguration() }

  func update(_ change: @escaping @Sendable ([UInt8]?) throws -> [UInt8]?) async throws {
    try await database.updateConfiguration(named: SubscriberDatabase.retentionConfigurationName, change)
  }
}
