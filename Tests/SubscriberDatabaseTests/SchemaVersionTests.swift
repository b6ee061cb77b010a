import DashModel
import CoreValues
import Foundation
import PostgresNIO
import Testing
@testable import SubscriberDatabase

/// The tables carry a schema version: a database made before versions existed (the subscribers
/// and catalogs tables alone) is brought up to date with its rows kept, one a newer SubDash moved
/// on is refused unchanged, and the configuration document (`serve --db`'s Retention Messaging
/// settings) is changed under its lock like a row, so concurrent writers never lose one another's.
@Suite(.enabled(if: TestDatabase.serverURL != nil, "SUBDASH_TEST_DB is not set: not run (bash scripts/test.sh starts a test server)"), .timeLimit(.minutes(2)))
struct SchemaVersionTests {
  static func version(_ db: SubscriberDatabase) async throws -> Int? {
    var out: Int?
    for try await v in try await db.client.query("SELECT version FROM subdash_schema", logger: db.logger).decode(Int.self) { out = v }
    return out
  }

  @Test func aDatabaseMadeBeforeSchemaVersionsIsBroughtUpToDateWithItsRowsKept() async throws {
    try await TestDatabase.with { url in
      try await SubscriberDatabase.open(url) { db in
        // What `migrate` made before it had versions, with a subscriber in it.
        for statement in SubscriberDatabase.schemaSteps[0] { try await db.client.query(statement, logger: db.logger) }
        try await db.store([StoredSubscriber(name: "old.json", document: Array("{}".utf8), journal: nil, catalogName: nil)], catalogs: [:])
        try await db.migrate()
        #expect(try await Self.version(db) == SubscriberDatabase.schemaVersion)
        #expect(try await db.subscribers().map(\.name) == ["old.json"])
        #expect(try await db.configuration(named: "retention-messaging") == nil)
        try await db.updateConfiguration(named: "retention-messaging") { _ in Array("{\"a\":1}".utf8) }
        #expect(try await db.configuration(named: "retention-messaging") == Array("{\"a\":1}".utf8))
        try await db.migrate()  // again: nothing to do, nothing lost
        #expect(try await db.configuration(named: "retention-messaging") == Array("{\"a\":1}".utf8))
      }
    }
  }

  @Test func aDatabaseANewerSubDashMovedOnIsRefusedUnchanged() async throws {
    try await TestDatabase.with { url in
      try await SubscriberDatabase.open(url) { db in
        try await db.migrate()
        let newer = SubscriberDatabase.schemaVersion + 1
        try await db.client.query("UPDATE subdash_schema SET version = \(newer)", logger: db.logger)
        await #expect(throws: DatabaseError.self) { try await db.migrate() }
        #expect(try await Self.version(db) == newer)
      }
    }
  }

  @Test func concurrentConfigurationWritersNeverLoseAChange() async throws {
    try await TestDatabase.with { url in
      try await SubscriberDatabase.open(url) { db in
        try await db.migrate()
        // Eight at once: each waits behind the others under the store's lock wait (5 s), so twenty
        // on a loaded 2-core CI machine could time out without anything being wrong.
        try await withThrowingTaskGroup(of: Void.self) { group in
          for k in 0..<8 {
            group.addTask {
              try await db.updateConfiguration(named: "list") { current in (current ?? []) + [UInt8(k)] }
            }
          }
          try await group.waitForAll()
        }
        let stored = try #require(try await db.configuration(named: "list"))
        #expect(stored.sorted() == (0..<8).map(UInt8.init))
      }
    }
  }
}
