import NIOCore
import PostgresNIO

extension SubscriberDatabase {
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
      // A row that does not exist yet cannot be locked: the advisory lock serialises its first writers.
      _ = try await c.query("SELECT pg_advisory_xact_lock(hashtextextended(\("configuration/" + name), 0))", logger: logger).collect()
      var current: [UInt8]?
      let rows = try await c.query("SELECT document FROM subdash_configuration WHERE name = \(name) FOR UPDATE", logger: logger)
      for try await document in rows.decode(ByteBuffer.self) { current = Array(document.readableBytesView) }
      guard let next = try change(current) else { return }
      try await c.query("""
        INSERT INTO subdash_configuration (name, document, version) VALUES (\(name), \(ByteBuffer(bytes: next)), 1)
        ON CONFLICT (name) DO UPDATE SET document = EXCLUDED.document,
          version = subdash_configuration.version + 1, updated_at = now()
        """, logger: logger)
    }
  }
}
