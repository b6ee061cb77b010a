import NIOCore
import PostgresNIO

extension SubscriberDatabase {
  /// NOTIFY channel of configuration documents (payload: the document's name), sent on commit.
  public static let configurationChannel = "subdash_configuration"
  /// The Retention Messaging configuration's document (messages, default messages, realtime URL,
  /// in the format of a directory's `.retention-messaging.json`): `serve --db` reads and changes it
  /// (RetentionInDatabase), `subdash db mirror` lays it into the dashboard's mirror directory.
  public static let retentionConfigurationName = "retention-messaging"

  /// The Retention Messaging configuration as stored, nil when none is.
  public func retentionConfiguration() async throws -> [UInt8]? {
    try await configuration(named: Self.retentionConfigurationName)
  }

  /// A configuration document (`subdash_configuration`, schema version 2) as stored, or nil when
  /// none is.
  public func configuration(named name: String) async throws -> [UInt8]? {
    var out: [UInt8]?
    do {
      let rows = try await client.query("SELECT document FROM subdash_configuration WHERE name = \(name)", logger: logger)
      for try await document in rows.decode(ByteBuffer.self) { out = Array(document.readableBytesView) }
    } catch { throw Self.describe(error, url) }
    return out
  }

  /// Changes configuration document `name` as `update` changes a subscriber: `change` sees the
  /// latest committed document (nil: none yet) while it is locked, and returns the next one (nil:
  /// leave it), stored as the next version in the same transaction. The wait for another writer
  /// is bounded by `lockWait` (`DatabaseError.busy` past it, nothing changed).
  public func updateConfiguration(named name: String, _ change: @Sendable ([UInt8]?) throws -> [UInt8]?) async throws {
    try await transaction { c in
      _ = try await c.query("SELECT set_config('lock_timeout', \(Self.lockTimeoutSetting), true)", logger: logger).collect()
      let current = try await lockedConfiguration(name, on: c)
      guard let next = try change(current?.document) else { return }
      try await storeConfiguration(name, next, on: c)
    }
  }

  /// The version of configuration document `name` (nil: none stored), as `versions()` gives the
  /// rows': what a `store` that must not replace a later change saw before it read its own.
  public func configurationVersion(named name: String) async throws -> Int64? {
    var out: Int64?
    do {
      let rows = try await client.query("SELECT version FROM subdash_configuration WHERE name = \(name)", logger: logger)
      for try await version in rows.decode(Int64.self) { out = version }
    } catch { throw Self.describe(error, url) }
    return out
  }

  /// Document `name` locked for this transaction (nil: none stored yet, and none can be stored by
  /// another writer until it ends). The caller has set `lock_timeout`.
  func lockedConfiguration(_ name: String, on c: PostgresConnection) async throws -> (document: [UInt8], version: Int64)? {
    var current: (document: [UInt8], version: Int64)?
    do {
      // A row that does not exist yet cannot be locked: the advisory lock serialises its first writers.
      _ = try await c.query("SELECT pg_advisory_xact_lock(hashtextextended(\("configuration/" + name), 0))", logger: logger).collect()
      let rows = try await c.query("SELECT document, version FROM subdash_configuration WHERE name = \(name) FOR UPDATE", logger: logger)
      for try await (document, version) in rows.decode((ByteBuffer, Int64).self) { current = (Array(document.readableBytesView), version) }
    } catch { throw Self.lockWaitNamed("configuration \(name)", error, url) }
    return current
  }

  /// Stores document `name` as its next version, NOTIFY on commit.
  func storeConfiguration(_ name: String, _ document: [UInt8], on c: PostgresConnection) async throws {
    try await c.query("""
      INSERT INTO subdash_configuration (name, document, version) VALUES (\(name), \(ByteBuffer(bytes: document)), 1)
      ON CONFLICT (name) DO UPDATE SET document = EXCLUDED.document,
        version = subdash_configuration.version + 1, updated_at = now()
      """, logger: logger)
    try await c.query("SELECT pg_notify(\(Self.configurationChannel), \(name))", logger: logger)
  }

  /// Calls `onChange` once LISTEN on the configuration channel is in effect (a commit after that
  /// cannot be missed), then after each commit of document `name`, one call at a time, until
  /// cancelled or the connection ends (then it returns).
  public func followConfiguration(named name: String, _ onChange: @Sendable () async throws -> Void) async throws {
    do {
      try await client.withConnection { c in
        try await c.listen(on: Self.configurationChannel) { notifications in
          try await onChange()
          for try await n in notifications where n.payload == name { try await onChange() }
        }
      }
    } catch { throw Self.describe(error, url) }
  }
}
