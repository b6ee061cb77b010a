import DashModel
import Foundation
import Logging
import NIOCore
import PostgresNIO
import SubscriberStorage

/// A team's subscribers in PostgreSQL. Each row holds one state file's bytes and its journal's, so
/// the files stay the format and the database is where they live: export gives back the same bytes.
/// Writers change a subscriber inside one transaction holding its row lock (`SELECT … FOR UPDATE`),
/// so two writers never lose each other's update; every change is announced with NOTIFY on
/// `subdash_subscribers` (payload: the subscriber's name) when its transaction commits.
///
///     try await SubscriberDatabase.open(try DatabaseURL("postgres://postgres@127.0.0.1:55432/subdash")) { db in
///       try await db.migrate()
///       try await db.store(rows, catalogs: [:])
///     }
public final class SubscriberDatabase: Sendable {
  public static let channel = "subdash_subscribers"
  /// How long a writer waits for a subscriber's lock: the same bound as a state file's lock.
  public static let lockWait = FileLock.maxWait
  static var lockTimeoutSetting: String { "\(lockWait.components.seconds * 1000 + lockWait.components.attoseconds / 1_000_000_000_000_000)ms" }
  let client: PostgresClient
  public let url: DatabaseURL
  let logger = Logger(label: "subdash-db")

  private init(url: DatabaseURL, client: PostgresClient) {
    self.url = url
    self.client = client
  }

  /// Runs `body` with a database whose connection pool runs for exactly that long (a pool runs
  /// once). One plain connection first: the pool reports a refused or unauthorised connection only
  /// as a tripped circuit breaker, while a single connection says why ("database … does not exist").
  /// Errors come out as one-line `DatabaseError`s.
  public static func open<T: Sendable>(_ url: DatabaseURL, _ body: @Sendable (SubscriberDatabase) async throws -> T) async throws -> T {
    do {
      let probe = try await PostgresConnection.connect(configuration: try url.connectionConfiguration(), id: 0, logger: Logger(label: "subdash-db"))
      try await probe.close()
    } catch {
      throw describe(error, url)
    }
    var log = Logger(label: "subdash-db.pool")
    log.logLevel = .critical
    let db = SubscriberDatabase(url: url, client: PostgresClient(configuration: url.clientConfiguration(), backgroundLogger: log))
    return try await withThrowingTaskGroup(of: T?.self) { group in
      group.addTask { await db.client.run(); return nil }
      defer { group.cancelAll() }
      do { return try await body(db) } catch { throw describe(error, url) }
    }
  }

  /// Stores subscribers (insert or replace, one transaction for all, NOTIFY for each) and the
  /// catalogs they name. A catalog already stored under the same name with other bytes is refused:
  /// replacing it would change every other subscriber that names it.
  ///
  /// `unchangedSince`: the versions the caller saw before it read what it stores (`versions()`;
  /// a name missing there was no row). Each row is then locked as `update` locks it and replaced
  /// only if it is still that version; a row another writer created or changed in between (a
  /// `listen --db` applying a notification during `db import`) fails the whole store with
  /// `DatabaseError.changed`, nothing stored, rather than losing that writer's change.
  ///
  /// `configurations`: documents stored in the same transaction (a directory's Retention Messaging
  /// configuration), each locked as `updateConfiguration` locks it and, with `unchangedSince`,
  /// replaced only if it is still the version its `seen` says.
  public func store(_ subscribers: [StoredSubscriber], catalogs: [String: [UInt8]], configurations: [ConfigurationDocument] = [],
                    unchangedSince seen: [String: Int64]? = nil) async throws {
    try await transaction { c in
      if seen != nil || !configurations.isEmpty {
        _ = try await c.query("SELECT set_config('lock_timeout', \(Self.lockTimeoutSetting), true)", logger: logger).collect()
      }
      // Rows first, in name order, then configurations: every writer that locks both kinds locks
      // in that order, so two never wait on each other crosswise (two imports of overlapping
      // directories; an import beside `serve --db`, which locks only its configuration).
      if seen != nil || !configurations.isEmpty {
        for s in subscribers.sorted(by: { $0.name < $1.name }) {
          let now = try await self.lockedRow(s.name, on: c)?.version
          guard let seen else { continue }
          guard now == seen[s.name] else {
            throw DatabaseError.changed("\(s.name): another writer \(now == nil ? "removed" : seen[s.name] == nil ? "created" : "changed") this subscriber in \(url.description) while it was being stored (version \(seen[s.name].map(String.init) ?? "none") then, \(now.map(String.init) ?? "none") now); nothing was stored, so that change is kept")
          }
        }
      }
      var documents: [(name: String, bytes: [UInt8])] = []
      for document in configurations.sorted(by: { $0.name < $1.name }) {
        let current = try await self.lockedConfiguration(document.name, on: c)
        if seen != nil, current?.version != document.seen {
          let now = current?.version
          throw DatabaseError.changed("configuration \(document.name): another writer \(now == nil ? "removed" : document.seen == nil ? "created" : "changed") it in \(url.description) while it was being stored (version \(document.seen.map(String.init) ?? "none") then, \(now.map(String.init) ?? "none") now); nothing was stored, so that change is kept")
        }
        documents.append((document.name, document.next(current?.document)))
      }
      try await self.storeCatalogs(catalogs, on: c)
      for s in subscribers { try await self.upsert(s, on: c) }
      for document in documents { try await self.storeConfiguration(document.name, document.bytes, on: c) }
    }
  }

  /// Catalogs not stored yet are inserted; one stored under the same name with other bytes is refused.
  private func storeCatalogs(_ catalogs: [String: [UInt8]], on c: PostgresConnection) async throws {
    for (name, bytes) in catalogs.sorted(by: { $0.key < $1.key }) {
      let existing = try await c.query("SELECT bytes FROM subdash_catalogs WHERE name = \(name) FOR UPDATE", logger: logger)
      var stored: ByteBuffer?
      for try await (b) in existing.decode(ByteBuffer.self) { stored = b }
      if let stored {
        guard Array(stored.readableBytesView) == bytes else {
          throw DatabaseError.file("catalog \(name): the database holds another file by this name; rename one of them")
        }
        continue
      }
      try await c.query("INSERT INTO subdash_catalogs (name, bytes) VALUES (\(name), \(ByteBuffer(bytes: bytes)))", logger: logger)
    }
  }

  private func upsert(_ s: StoredSubscriber, on c: PostgresConnection) async throws {
    let journalName = s.journal?.name
    let journalBytes = s.journal.map { ByteBuffer(bytes: $0.bytes) }
    try await c.query("""
      INSERT INTO subdash_subscribers (name, original_transaction_id, document, journal_name, journal, catalog_name, version)
      VALUES (\(s.name), \(s.originalTransactionId), \(ByteBuffer(bytes: s.document)), \(journalName), \(journalBytes), \(s.catalogName), 1)
      ON CONFLICT (name) DO UPDATE SET original_transaction_id = EXCLUDED.original_transaction_id,
        document = EXCLUDED.document, journal_name = EXCLUDED.journal_name, journal = EXCLUDED.journal,
        catalog_name = EXCLUDED.catalog_name, version = subdash_subscribers.version + 1, updated_at = now()
      """, logger: logger)
    try await c.query("SELECT pg_notify(\(Self.channel), \(s.name))", logger: logger)
  }

  /// Every subscriber (or those named), in name order.
  public func subscribers(named names: [String]? = nil) async throws -> [StoredSubscriber] {
    let rows: PostgresRowSequence
    if let names {
      rows = try await client.query("""
        SELECT name, document, journal_name, journal, catalog_name, version FROM subdash_subscribers
        WHERE name = ANY(\(names)) ORDER BY name
        """, logger: logger)
    } else {
      rows = try await client.query("SELECT name, document, journal_name, journal, catalog_name, version FROM subdash_subscribers ORDER BY name", logger: logger)
    }
    var out: [StoredSubscriber] = []
    for try await (name, document, journalName, journal, catalog, version) in rows.decode((String, ByteBuffer, String?, ByteBuffer?, String?, Int64).self) {
      let j: (name: String, bytes: [UInt8])? = journalName.map { ($0, journal.map { Array($0.readableBytesView) } ?? []) }
      out.append(StoredSubscriber(name: name, document: Array(document.readableBytesView), journal: j, catalogName: catalog, version: version))
    }
    return out
  }

  /// The catalogs the given subscribers name (all when nil).
  public func catalogs(named names: Set<String>? = nil) async throws -> [String: [UInt8]] {
    var out: [String: [UInt8]] = [:]
    let rows = try await client.query("SELECT name, bytes FROM subdash_catalogs", logger: logger)
    for try await (name, bytes) in rows.decode((String, ByteBuffer).self) where names?.contains(name) ?? true {
      out[name] = Array(bytes.readableBytesView)
    }
    return out
  }

  /// Changes one subscriber under its lock: `change` sees the latest committed row (or nil for a
  /// new subscriber) and returns the new one (or nil to leave it); it may wait while the lock is
  /// held (a dashboard applying a key to the row through `subdash db mirror`). Concurrent writers
  /// queue on the lock, so none is lost, including the first two writers of a subscriber not
  /// stored yet.
  ///
  /// The wait for the lock is bounded by `lockWait` (PostgreSQL's `lock_timeout`, for this
  /// transaction only): a session that keeps the row locked (an open `psql` transaction) makes
  /// this fail with `DatabaseError.busy`, having changed nothing, instead of holding the caller.
  @discardableResult
  public func update(_ name: String, _ change: @Sendable (StoredSubscriber?) async throws -> StoredSubscriber?) async throws -> StoredSubscriber? {
    try await updateWithCatalogs(name) { current, _ in try await change(current).map { ($0, [:]) } }
  }

  /// `update` whose change also gets the catalog the row names (read on the transaction's own
  /// connection: a change that asked the pool for another while many writers wait holding theirs
  /// could wait for a connection none of them gives back) and may name catalogs to store with the
  /// row (a new subscriber's), in the same transaction: a catalog stored under that name with
  /// other bytes refuses the change.
  @discardableResult
  public func updateWithCatalogs(
    _ name: String,
    _ change: @Sendable (StoredSubscriber?, _ catalogs: [String: [UInt8]]) async throws -> (row: StoredSubscriber, catalogs: [String: [UInt8]])?
  ) async throws -> StoredSubscriber? {
    try await transaction { c in
      _ = try await c.query("SELECT set_config('lock_timeout', \(Self.lockTimeoutSetting), true)", logger: logger).collect()
      let current = try await self.lockedRow(name, on: c)
      var catalogs: [String: [UInt8]] = [:]
      if let catalog = current?.catalogName {
        let rows = try await c.query("SELECT name, bytes FROM subdash_catalogs WHERE name = \(catalog)", logger: logger)
        for try await (n, bytes) in rows.decode((String, ByteBuffer).self) { catalogs[n] = Array(bytes.readableBytesView) }
      }
      guard let decided = try await change(current, catalogs) else { return current }
      var next = decided.row
      next.name = name
      try await self.storeCatalogs(decided.catalogs, on: c)
      try await self.upsert(next, on: c)
      next.version = (current?.version ?? 0) + 1
      return next
    }
  }

  /// Locks subscriber `name` until the transaction ends and reads its latest committed row (nil:
  /// none yet). The wait is bounded by the transaction's `lock_timeout`.
  private func lockedRow(_ name: String, on c: PostgresConnection) async throws -> StoredSubscriber? {
    // A row lock cannot lock a row that does not exist yet: two writers of a new subscriber
    // would both see nothing and the second insert would replace the first. A transaction-scoped
    // advisory lock on the name serialises them whether the row exists or not.
    // Read to its end: a lock wait that ran out (55P03) is reported on the result, and unread it
    // would surface only as the next query's "current transaction is aborted".
    var current: StoredSubscriber?
    do {
      _ = try await c.query("SELECT pg_advisory_xact_lock(hashtextextended(\(name), 0))", logger: logger).collect()
      let rows = try await c.query("""
        SELECT name, document, journal_name, journal, catalog_name, version FROM subdash_subscribers WHERE name = \(name) FOR UPDATE
        """, logger: logger)
      for try await (n, document, journalName, journal, catalog, version) in rows.decode((String, ByteBuffer, String?, ByteBuffer?, String?, Int64).self) {
        let j: (name: String, bytes: [UInt8])? = journalName.map { ($0, journal.map { Array($0.readableBytesView) } ?? []) }
        current = StoredSubscriber(name: n, document: Array(document.readableBytesView), journal: j, catalogName: catalog, version: version)
      }
    } catch { throw Self.lockWaitNamed("subscriber \(name)", error, url) }
    return current
  }

  /// Every row's version by name, for `store(_:catalogs:unchangedSince:)`.
  public func versions() async throws -> [String: Int64] {
    var out: [String: Int64] = [:]
    do {
      let rows = try await client.query("SELECT name, version FROM subdash_subscribers", logger: logger)
      for try await (name, version) in rows.decode((String, Int64).self) { out[name] = version }
    } catch { throw Self.describe(error, url) }
    return out
  }

  /// A transaction whose refusals and failures come out as one-line `DatabaseError`s.
  func transaction<T>(_ body: (PostgresConnection) async throws -> sending T) async throws -> sending T {
    do { return try await client.withTransaction(logger: logger, body) } catch { throw Self.describe(error, url) }
  }

  /// Calls `onChange` with each changed subscriber's name as writers commit, until cancelled.
  /// `onListening` runs once LISTEN is in effect: what is read after it cannot miss a change.
  public func follow(onListening: @Sendable () -> Void = {}, _ onChange: @Sendable (String) async throws -> Void) async throws {
    try await client.withConnection { c in
      try await c.listen(on: Self.channel) { notifications in
        onListening()
        for try await n in notifications { try await onChange(n.payload) }
      }
    }
  }

  /// A lock wait that ran out (55P03, `lock_timeout`) as `.busy` naming what was locked; any other
  /// error as it was.
  static func lockWaitNamed(_ what: String, _ error: any Error, _ url: DatabaseURL) -> any Error {
    guard let p = error as? PSQLError, p.serverInfo?[.sqlState] == "55P03" else { return error }
    return DatabaseError.busy("\(url.description): \(what) is locked by another session (more than \(lockWait.components.seconds) s); nothing was changed")
  }

  static func describe(_ error: any Error, _ url: DatabaseURL) -> DatabaseError {
    if let e = error as? DatabaseError { return e }
    // A refusal thrown inside a transaction comes back wrapped with the rollback's outcome.
    if let t = error as? PostgresTransactionError {
      if let inner = t.closureError ?? t.beginError ?? t.commitError { return describe(inner, url) }
    }
    if let p = error as? PSQLError {
      // 55P03 lock_not_available: lock_timeout expired waiting for a subscriber's lock.
      if p.serverInfo?[.sqlState] == "55P03" {
        return .busy("\(url.description): the subscriber is locked by another session (more than \(lockWait.components.seconds) s); nothing was changed")
      }
      if let message = p.serverInfo?[.message] { return .server("\(url.description): \(message)") }
      if let underlying = p.underlying { return .server("\(url.description): cannot connect: \(underlying)") }
      return .server("\(url.description): \(p.code.description)")
    }
    return .server("\(url.description): \(error)")
  }
}
