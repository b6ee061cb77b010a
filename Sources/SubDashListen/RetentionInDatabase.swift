import LocalAppStoreAPI
import SubscriberDatabase

/// `serve --db`: the Retention Messaging configuration (messages, default messages, realtime URL)
/// is a document in the team database (`subdash_configuration`), changed under its lock as rows
/// are, so it outlives the server and every `serve --db` of the team sees the same one.
struct RetentionInDatabase: RetentionConfigurationStorage {
  static let name = "retention-messaging"
  let database: SubscriberDatabase
  var place: String { database.url.description }

  func read() async throws -> [UInt8]? { try await database.configuration(named: Self.name) }

  func update(_ change: @escaping @Sendable ([UInt8]?) throws -> [UInt8]?) async throws {
    try await database.updateConfiguration(named: Self.name, change)
  }
}
