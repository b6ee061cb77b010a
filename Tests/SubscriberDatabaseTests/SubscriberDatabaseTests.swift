import DashModel
import Foundation
import PostgresNIO
import Testing
@testable import SubscriberDatabase
import CoreValues
import SubscriberStorage

/// A team's subscribers in PostgreSQL, against a real server: `.ci/run` starts Debian's PostgreSQL
/// on a loopback port (scripts/postgres-test-server.sh) and sets SUBDASH_TEST_DB. Each test gets
/// a database of its own, so they run side by side without seeing each other's rows.
@Suite(.enabled(if: TestDatabase.serverURL != nil, "SUBDASH_TEST_DB is not set: not run (bash scripts/test.sh starts a test server)"),
       .timeLimit(.minutes(2)))
struct SubscriberDatabaseTests {
  @Test func aDirectoryStoredAndExportedComesBackByteForByte() async throws {
    try await TestDatabase.with { url in
      let source = try Workspace.examplesWithAJournal()
      defer { try? FileManager.default.removeItem(at: source) }
      let read = try DirectoryFiles.read(source.path)
      #expect(read.subscribers.count >= 18)
      #expect(read.subscribers.contains { $0.journal != nil }, "a simulated file brings its journal")
      #expect(read.catalogs.keys.contains("backyard-birds.storekit"))
      try await SubscriberDatabase.open(url) { db in try await db.migrate(); try await db.store(read.subscribers, catalogs: read.catalogs) }

      let target = Workspace.fresh()

      defer { try? FileManager.default.removeItem(at: target) }
      try await SubscriberDatabase.open(url) { db in
        try DirectoryFiles.write(try await db.subscribers(), catalogs: try await db.catalogs(), to: target.path)
      }
      // The lock file (`.subdash.lock`) is the writers', not a subscriber's: it is not stored.
      for name in try FileManager.default.contentsOfDirectory(atPath: source.path).sorted() where !name.hasPrefix(".subdash.lock") {
        let a = try Data(contentsOf: source.appendingPathComponent(name))
        let b = try Data(contentsOf: target.appendingPathComponent(name))
        #expect(a == b, "\(name) differs after the round trip")
      }
      // Every exported state file opens as SubDash's own.
      for s in read.subscribers { _ = try StateFile.load(path: target.appendingPathComponent(s.name).path) }
    }
  }

  @Test func aFileSubDashCannotOpenIsNamedAndNothingIsStored() async throws {
    let dir = Workspace.fresh()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Data(#"{"format": 1, "subscriber": "#.utf8).write(to: dir.appendingPathComponent("broken.json"))
    #expect {
      _ = try DirectoryFiles.read(dir.path)
    } throws: { error in
      guard let e = error as? DatabaseError, case .file(let message) = e else { return false }
      return message.contains("broken.json") && message.hasSuffix("(nothing was stored)")
    }
  }

  /// Two clients (two processes' worth of pools) change the same subscriber 100 times each, at
  /// once. Row locks queue them: the count at the end is every change, none lost.
  @Test func concurrentWritersNeverLoseAnUpdate() async throws {
    try await TestDatabase.with { url in
      let seed = StoredSubscriber(name: "counter.json", document: Array(#"{"count":0}"#.utf8), journal: nil, catalogName: nil)
      try await SubscriberDatabase.open(url) { db in try await db.migrate(); try await db.store([seed], catalogs: [:]) }
      try await SubscriberDatabase.open(url) { first in
        try await SubscriberDatabase.open(url) { second in
          try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<200 {
              let db = i.isMultiple(of: 2) ? first : second
              group.addTask { try await db.update("counter.json") { current in current.map(Counter.incremented) } }
            }
            try await group.waitForAll()
          }
        }
      }
      let final = try await SubscriberDatabase.open(url) { db in try await db.subscribers(named: ["counter.json"]) }
      #expect(final.first.map(Counter.value) == 200)
      #expect(final.first?.version == 201)
    }
  }

  /// The first writers of a subscriber not stored yet: a row lock has no row to lock, so without
  /// the name lock each would see nothing and the last insert would win (caught by listen --db).
  @Test func concurrentFirstWritersOfANewSubscriberNeverLoseAnUpdate() async throws {
    try await TestDatabase.with { url in
      try await SubscriberDatabase.open(url) { db in try await db.migrate() }
      try await SubscriberDatabase.open(url) { first in
        try await SubscriberDatabase.open(url) { second in
          try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<50 {
              let db = i.isMultiple(of: 2) ? first : second
              group.addTask {
                try await db.update("new.json") { current in
                  Counter.incremented(current ?? StoredSubscriber(name: "new.json", document: Array(#"{"count":0}"#.utf8), journal: nil, catalogName: nil))
                }
              }
            }
            try await group.waitForAll()
          }
        }
      }
      let final = try await SubscriberDatabase.open(url) { db in try await db.subscribers(named: ["new.json"]) }
      #expect(final.first.map(Counter.value) == 50)
    }
  }

  /// A reader following the database hears of a change the moment its writer commits.
  @Test func aFollowerHearsEveryCommittedChange() async throws {
    try await TestDatabase.with { url in
      let heard: [String] = try await SubscriberDatabase.open(url) { db in
        try await db.migrate()
        return try await withThrowingTaskGroup(of: [String].self) { group in
          let (listening, ready) = AsyncStream<Void>.makeStream()
          let (names, sink) = AsyncStream<String>.makeStream()
          group.addTask {
            try await db.follow(onListening: { ready.yield(()) }) { sink.yield($0) }
            return []
          }
          group.addTask {
            var got: [String] = []
            for await n in names { got.append(n); if got.count == 2 { break } }
            return got
          }
          for await _ in listening { break }
          let a = StoredSubscriber(name: "a.json", document: Array("{}".utf8), journal: nil, catalogName: nil)
          try await db.store([a], catalogs: [:])
          try await db.update("b.json") { _ in StoredSubscriber(name: "b.json", document: Array("{}".utf8), journal: nil, catalogName: nil) }
          var result: [String] = []
          while let next = try await group.next() { if !next.isEmpty { result = next; break } }
          group.cancelAll()
          return result
        }
      }
      #expect(heard == ["a.json", "b.json"])
    }
  }

  /// Rows can be written by anyone with access to the database; a name that is not a plain file
  /// name never becomes a path outside the directory.
  @Test func aRowNamedWithAPathIsNeverWrittenOutsideTheDirectory() throws {
    let dir = Workspace.fresh()
    defer { try? FileManager.default.removeItem(at: dir) }
    let evil = StoredSubscriber(name: "../escaped.json", document: Array("{}".utf8), journal: nil, catalogName: nil)
    #expect(throws: DatabaseError.self) { try DirectoryFiles.write([evil], catalogs: [:], to: dir.path) }
    #expect(!FileManager.default.fileExists(atPath: dir.deletingLastPathComponent().appendingPathComponent("escaped.json").path))
    let sneaky = StoredSubscriber(name: "ok.json", document: Array("{}".utf8), journal: ("../j.jsonl", []), catalogName: nil)
    #expect(throws: DatabaseError.self) { try DirectoryFiles.write([sneaky], catalogs: [:], to: dir.path) }
  }

  /// A catalog shared by name is stored once; another file under the same name is refused rather
  /// than silently changing every subscriber that names it.
  @Test func aDifferentCatalogUnderAStoredNameIsRefused() async throws {
    try await TestDatabase.with { url in
      try await SubscriberDatabase.open(url) { db in
        try await db.migrate()
        try await db.store([], catalogs: ["app.storekit": Array("one".utf8)])
        try await db.store([], catalogs: ["app.storekit": Array("one".utf8)])
        await #expect(throws: DatabaseError.file("catalog app.storekit: the database holds another file by this name; rename one of them")) {
          try await db.store([], catalogs: ["app.storekit": Array("two".utf8)])
        }
      }
    }
  }

  @Test func urlsAreCheckedAndPasswordsNeverPrinted() throws {
    let url = try DatabaseURL("postgres://team:s3cret@db.example.com:6543/subscribers")
    #expect(url.description == "postgres://team@db.example.com:6543/subscribers")
    #expect(!url.isLoopback)
    #expect(throws: DatabaseError.usage("--db must be postgres://USER@HOST[:PORT]/DATABASE, not mysql://team:***@h/x")) {
      _ = try DatabaseURL("mysql://team:pw@h/x")
    }
    #expect(throws: DatabaseError.usage("--db postgres://team@h: no database name after the host")) { _ = try DatabaseURL("postgres://team@h") }
  }
}

/// The count kept in a test document, changed the way a writer changes a state file: read, change, write.
enum Counter {
  static func value(_ s: StoredSubscriber) -> Int {
    guard case .object(let o)? = try? JSONParser.parse(s.document), case .number(let n)? = o["count"] else { return -1 }
    return Int(n) ?? -1
  }
  static func incremented(_ s: StoredSubscriber) -> StoredSubscriber {
    var next = s
    next.document = Array(#"{"count":\#(value(s) + 1)}"#.utf8)
    return next
  }
}
