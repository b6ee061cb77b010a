import DashModel
import CoreValues
import Foundation
import PostgresNIO
import Testing
@testable import SubscriberDatabase
import SubscriberStorage

/// The mirror (`subdash --db`, `serve --db`) follows the database through the subscriber store's
/// `follow`, which says when LISTEN is in effect (so the export after it misses no commit) and,
/// when the connection is lost, why: a mirror no longer told of changes must say so and end, not
/// go on serving rows as if they were current.
@Suite(.enabled(if: TestDatabase.serverURL != nil, "SUBDASH_TEST_DB is not set: not run (bash scripts/test.sh starts a test server)"))
struct DirectoryMirrorFollowTests {
  static func row(_ name: String) -> StoredSubscriber {
    StoredSubscriber(name: name, document: Array("{}".utf8), journal: nil, catalogName: nil)
  }

  @Test func theStoresFollowSaysWhenItListensAndHearsACommitMadeRightAfter() async throws {
    try await TestDatabase.with { url in
      try await SubscriberDatabase.open(url) { db in
        try await db.migrate()
        let scratch = try PrivateDirectory.makeTemporary("subdash-store-test")
        defer { PrivateDirectory.remove(scratch) }
        let store = PostgresSubscriberStore(database: db, scratch: scratch)
        let (listening, heard) = AsyncStream<Void>.makeStream()
        var events = store.follow(onListening: { heard.yield(()) }, onEnd: { _ in }).makeAsyncIterator()
        for await _ in listening { break }
        // No sleep: committed the moment LISTEN is in effect, and still heard.
        try await db.store([Self.row("a.json")], catalogs: [:])
        #expect(await events.next() == .changed("a.json"))
      }
    }
  }

  @Test func theMirrorWritesEachCommitAndEndsWithWhyWhenItsConnectionIsLost() async throws {
    try await TestDatabase.with { url in
      try await SubscriberDatabase.open(url) { db in
        try await db.migrate()
        try await db.store([Self.row("before.json")], catalogs: [:])
        let scratch = try PrivateDirectory.makeTemporary("subdash-mirror-test")
        defer { PrivateDirectory.remove(scratch) }
        let directory = scratch + "/mirror"
        let store = PostgresSubscriberStore(database: db, scratch: scratch)
        let mirror = DirectoryMirror(directory: directory) { _ in }
        let (ready, readySink) = AsyncStream<Int>.makeStream()
        let run = Task { try await mirror.run(store) { readySink.yield($0) } }
        defer { run.cancel() }
        var count: Int?
        for await n in ready { count = n; break }
        #expect(count == 1)
        #expect(FileManager.default.fileExists(atPath: directory + "/before.json"))

        try await db.store([Self.row("after.json")], catalogs: [:])
        #expect(await Self.appears(directory + "/after.json", within: .seconds(10)))

        // Another session cuts the mirror's listening connection.
        let cut = try await db.client.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query ILIKE 'LISTEN%'")
        var terminated = 0
        for try await ok in cut.decode(Bool.self) where ok { terminated += 1 }
        #expect(terminated == 1)
        // Bounded: a mirror that went on silently would be cancelled here, and fail the check.
        let watchdog = Task {
          try await Task.sleep(for: .seconds(15))
          run.cancel()
        }
        defer { watchdog.cancel() }
        let outcome = await run.result
        guard case .failure(let error) = outcome else { Issue.record("the mirror ended without an error"); return }
        #expect(error is DatabaseError, "\(error)")
      }
    }
  }

  static func appears(_ path: String, within limit: Duration) async -> Bool {
    let clock = ContinuousClock(), end = clock.now + limit
    while clock.now < end {
      if FileManager.default.fileExists(atPath: path) { return true }
      try? await Task.sleep(for: .milliseconds(20))
    }
    return false
  }
}
