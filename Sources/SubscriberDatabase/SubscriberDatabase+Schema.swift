import PostgresNIO

extension SubscriberDatabase {
  /// The schema, one step per version, in order; a database records the last step it took in
  /// `subdash_schema`. A step is never edited once released: a change is a new step. Version 1 is
  /// the tables made before the schema had versions (`IF NOT EXISTS`, so a database made then
  /// takes it without change).
  static let schemaSteps: [[PostgresQuery]] = [
    [
      """
      CREATE TABLE IF NOT EXISTS subdash_subscribers (
        name text PRIMARY KEY,
        original_transaction_id text,
        document bytea NOT NULL,
        journal_name text,
        journal bytea,
        catalog_name text,
        version bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now())
      """,
      "CREATE INDEX IF NOT EXISTS subdash_subscribers_otid ON subdash_subscribers (original_transaction_id)",
      "CREATE TABLE IF NOT EXISTS subdash_catalogs (name text PRIMARY KEY, bytes bytea NOT NULL)",
    ],
    [
      // 2: configuration documents that are not a subscriber's (the Retention Messaging API's
      // messages, default messages and realtime URL for `serve --db`), versioned as rows are.
      """
      CREATE TABLE subdash_configuration (
        name text PRIMARY KEY,
        document bytea NOT NULL,
        version bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now())
      """,
    ],
  ]

  /// The version this build's schema has.
  public static var schemaVersion: Int { schemaSteps.count }

  /// Brings the tables up to `schemaVersion`, each missing step in order, in one transaction. Two
  /// processes may start at once: an advisory lock makes the second wait instead of failing on the
  /// first's half-made table. A database a newer SubDash has moved past is refused, unchanged.
  public func migrate() async throws {
    try await transaction { c in
      try await c.query("SELECT pg_advisory_xact_lock(7361626)", logger: logger)
      try await c.query("""
        CREATE TABLE IF NOT EXISTS subdash_schema (
          one boolean PRIMARY KEY DEFAULT true CHECK (one),
          version integer NOT NULL)
        """, logger: logger)
      var stored = 0
      for try await v in try await c.query("SELECT version FROM subdash_schema", logger: logger).decode(Int.self) { stored = v }
      guard stored <= Self.schemaVersion else {
        throw DatabaseError.server("\(url.description): the tables are at schema version \(stored), newer than this SubDash's \(Self.schemaVersion); nothing was changed (use a newer subdash)")
      }
      for step in Self.schemaSteps.dropFirst(stored) {
        for statement in step { try await c.query(statement, logger: logger) }
      }
      let version = Self.schemaVersion
      try await c.query("""
        INSERT INTO subdash_schema (one, version) VALUES (true, \(version))
        ON CONFLICT (one) DO UPDATE SET version = EXCLUDED.version
        """, logger: logger)
    }
  }
}
