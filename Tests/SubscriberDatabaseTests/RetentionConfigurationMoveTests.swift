import DashModel
import Foundation
import Testing
@testable import SubscriberDatabase

/// A team moves a `serve DIR` directory into the database (`db import`) and back out (`db
/// export`): the Retention Messaging configuration `serve` kept beside the state files moves with
/// the subscribers, so `serve --db` and a dashboard over `--db` show the same messages.
@Suite(.enabled(if: TestDatabase.serverURL != nil, "SUBDASH_TEST_DB is not set (scripts/postgres-test-server.sh start)"),
       .timeLimit(.minutes(2)))
struct RetentionConfigurationMoveTests {
  static let name = SubscriberDatabase.retentionConfigurationName

  /// What `serve` writes after a developer uploaded a message, set it as a default and a realtime URL.
  static func servedSetup() -> RetentionSetup {
    RetentionSetup(messages: ["a5f9c2d0-0000-4000-8000-000000000001": .init(header: "Before you go", body: "Your birds miss you.", bulletPoints: ["Spring migration maps"])],
                   defaults: ["pass.family.monthly/en-US": "a5f9c2d0-0000-4000-8000-000000000001"],
                   realtimeURL: "https://retention.example.com/realtime")
  }

  /// A directory as `serve DIR` leaves it: a subscriber and the configuration beside it.
  static func servedDirectory() throws -> URL {
    let dir = Workspace.fresh()
    try FileManager.default.copyItem(at: Workspace.repoRoot.appendingPathComponent("Examples/active.json"), to: dir.appendingPathComponent("active.json"))
    try servedSetup().save(besideStateFile: dir.appendingPathComponent("active.json").path)
    return dir
  }

  @Test func aServeDirectorysConfigurationGoesIntoTheDatabaseAndComesBackByteForByte() async throws {
    try await TestDatabase.with { url in
      let source = try Self.servedDirectory(), target = Workspace.fresh()
      defer { for d in [source, target] { try? FileManager.default.removeItem(at: d) } }
      let written = try Data(contentsOf: source.appendingPathComponent(RetentionSetup.fileName))
      try await SubscriberDatabase.open(url) { db in
        try await db.migrate()
        // As `db import` does: the versions seen first, then the directory read and stored.
        let seen = try await db.versions(), seenConfiguration = try await db.configurationVersion(named: Self.name)
        #expect(seenConfiguration == nil)
        let read = try DirectoryFiles.read(source.path)
        let configuration = try #require(try DirectoryFiles.retentionConfiguration(in: source.path))
        #expect(Data(configuration) == written)
        try await db.store(read.subscribers, catalogs: read.catalogs,
                           configurations: [ConfigurationDocument(name: Self.name, bytes: configuration, seen: seenConfiguration)], unchangedSince: seen)
        // What `serve --db` and the mirror read.
        #expect(try await db.retentionConfiguration().map { Data($0) } == written)
        #expect(try await db.configurationVersion(named: Self.name) == 1)

        // As `db export` does.
        try DirectoryFiles.write(try await db.subscribers(), catalogs: try await db.catalogs(), to: target.path)
        try DirectoryFiles.writeRetentionConfiguration(try #require(try await db.retentionConfiguration()), to: target.path)
      }
      let exported = target.appendingPathComponent(RetentionSetup.fileName).path
      #expect(FileManager.default.contents(atPath: exported) == written)
      let mode = (try FileManager.default.attributesOfItem(atPath: exported)[.posixPermissions] as? NSNumber)?.intValue
      #expect(mode == 0o600)
      // The dashboard beside the exported subscriber reads the same configuration.
      #expect(try RetentionSetup.load(besideStateFile: target.appendingPathComponent("active.json").path) == Self.servedSetup())
    }
  }

  @Test func aDirectoryWithoutAConfigurationHasNone() throws {
    let dir = Workspace.fresh()
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(try DirectoryFiles.retentionConfiguration(in: dir.path) == nil)
  }

  /// The file names the server the App Store calls: one others can change is refused, as the
  /// dashboard refuses it, and so is one that does not read as a configuration; both before
  /// anything is stored.
  @Test func aConfigurationOthersCanWriteOrThatDoesNotReadIsNamedAndNothingIsStored() throws {
    let dir = try Self.servedDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent(RetentionSetup.fileName).path
    try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: path)
    #expect {
      _ = try DirectoryFiles.retentionConfiguration(in: dir.path)
    } throws: { error in
      guard case .file(let message)? = error as? DatabaseError else { return false }
      return message.hasPrefix(path + ":") && message.hasSuffix("(nothing was stored)")
    }
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    try Data(#"{"messages": [{"messageIdentifier": "x"}]}"#.utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: DatabaseError.file("\(path): messages[0] is not a message with messageIdentifier, header and body (nothing was stored)")) {
      _ = try DirectoryFiles.retentionConfiguration(in: dir.path)
    }
  }

  /// `serve --db` changes the configuration while `db import` reads the directory: the import
  /// stores nothing (not even its subscribers), so the developer's change is kept.
  @Test func aConfigurationServeChangesDuringAnImportIsKept() async throws {
    try await TestDatabase.with { url in
      let source = try Self.servedDirectory()
      defer { try? FileManager.default.removeItem(at: source) }
      try await SubscriberDatabase.open(url) { db in
        try await db.migrate()
        let seen = try await db.versions(), seenConfiguration = try await db.configurationVersion(named: Self.name)
        let read = try DirectoryFiles.read(source.path)
        let configuration = try #require(try DirectoryFiles.retentionConfiguration(in: source.path))
        let served = Array(#"{"messages": [], "defaults": [], "realtimeURL": "https://other.example.com/realtime"}"#.utf8)
        try await db.updateConfiguration(named: Self.name) { _ in served }
        await #expect {
          try await db.store(read.subscribers, catalogs: read.catalogs,
                             configurations: [ConfigurationDocument(name: Self.name, bytes: configuration, seen: seenConfiguration)], unchangedSince: seen)
        } throws: { error in
          guard case .changed(let message)? = error as? DatabaseError else { return false }
          return message.hasPrefix("configuration retention-messaging: another writer created it")
        }
        #expect(try await db.retentionConfiguration() == served)
        #expect(try await db.versions().isEmpty, "nothing of the import was stored")
      }
    }
  }
}
