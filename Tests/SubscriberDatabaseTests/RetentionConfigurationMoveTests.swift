import DashModel
import Foundation
import Testing
@testable import SubscriberDatabase
import CoreValues
import SubscriberStorage
import RetentionMessaging

/// A team moves a `serve DIR` directory into the database (`db import`) and back out (`db
/// export`): the Retention Messaging configuration `serve` kept beside the state files moves with
/// the subscribers, so `serve --db` and a dashboard over `--db` show the same messages.
@Suite(.enabled(if: TestDatabase.serverURL != nil, "SUBDASH_TEST_DB is not set: not run (bash scripts/test.sh starts a test server)"),
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

  /// The database's document names the key its `serve --db` checks offers with; the directory's
  /// names the old server's. The import brings the messages, defaults and URL, and keeps the key.
  @Test func anImportKeepsTheKeyTheDatabasesServerRecorded() async throws {
    try await TestDatabase.with { url in
      let source = try Self.servedDirectory()
      defer { try? FileManager.default.removeItem(at: source) }
      var old = Self.servedSetup()
      old.inAppPurchaseKeys = [Self.key("OLDKEY0001")]
      try old.save(besideStateFile: source.appendingPathComponent("active.json").path)
      let teamKey = Self.key("TEAMKEY001")
      try await SubscriberDatabase.open(url) { db in
        try await db.migrate()
        try await db.updateConfiguration(named: Self.name) { _ in JSONWriter.write(RetentionSetup(inAppPurchaseKeys: [teamKey]).json) }
        let seen = try await db.versions(), seenConfiguration = try await db.configurationVersion(named: Self.name)
        let read = try DirectoryFiles.read(source.path)
        let bytes = try #require(try DirectoryFiles.retentionConfiguration(in: source.path))
        try await db.store(read.subscribers, catalogs: read.catalogs, configurations: [
          ConfigurationDocument(name: Self.name, seen: seenConfiguration) { stored in RetentionSetup.keepingStoredKeys(stored, in: bytes) },
        ], unchangedSince: seen)
        let stored = try RetentionSetup.parse(try #require(try await db.retentionConfiguration()), path: "stored")
        var expected = Self.servedSetup()
        expected.inAppPurchaseKeys = [teamKey]
        #expect(stored == expected)
      }
    }
  }

  /// Another session holds the configuration (a `serve --db` in the middle of a change): the
  /// import waits at most the bound, then says which lock it waited for; nothing is stored.
  @Test func anImportWaitingTooLongForTheConfigurationSaysSo() async throws {
    try await TestDatabase.with { url in
      let source = try Self.servedDirectory()
      defer { try? FileManager.default.removeItem(at: source) }
      try await SubscriberDatabase.open(url) { db in
        try await db.migrate()
        let holding = Task {
          try await db.transaction { c in
            _ = try await db.lockedConfiguration(Self.name, on: c)
            try await Task.sleep(for: .seconds(30))
          }
        }
        defer { holding.cancel() }
        try await Task.sleep(for: .milliseconds(300))
        let read = try DirectoryFiles.read(source.path)
        let bytes = try #require(try DirectoryFiles.retentionConfiguration(in: source.path))
        await #expect {
          try await db.store(read.subscribers, catalogs: read.catalogs,
                             configurations: [ConfigurationDocument(name: Self.name, bytes: bytes, seen: nil)], unchangedSince: [:])
        } throws: { error in
          guard case .busy(let message)? = error as? DatabaseError else { return false }
          return message.contains("configuration retention-messaging is locked by another session")
        }
        #expect(try await db.versions().isEmpty, "nothing of the import was stored")
      }
    }
  }

  static func key(_ keyId: String) -> InAppPurchaseKey {
    InAppPurchaseKey(keyId: keyId, issuerId: "57246542-96fe-1a63-e053-0824d011072a", bundleId: "com.example.birdwatch",
                     publicKeyPEM: "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----")
  }
}

/// The directory side of moving a configuration: no database needed.
@Suite struct RetentionConfigurationFileTests {
  @Test func aDirectoryWithoutAConfigurationHasNone() throws {
    let dir = Workspace.fresh()
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(try DirectoryFiles.retentionConfiguration(in: dir.path) == nil)
  }

  /// The file names the server the App Store calls: one others can change is refused, as the
  /// dashboard refuses it, and so is one that does not read as a configuration; both before
  /// anything is stored.
  @Test func aConfigurationOthersCanWriteOrThatDoesNotReadIsNamedAndNothingIsStored() throws {
    let dir = try RetentionConfigurationMoveTests.servedDirectory()
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


  /// An export over a configuration someone made readable by others makes it private again: the
  /// dashboard, `subdash-retention` and the next import refuse any other mode.
  @Test func anExportOverAFileOthersCouldReadLeavesItPrivate() throws {
    let dir = try RetentionConfigurationMoveTests.servedDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent(RetentionSetup.fileName).path
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
    let bytes = JSONWriter.write(RetentionConfigurationMoveTests.servedSetup().json)
    try DirectoryFiles.writeRetentionConfiguration(bytes, to: dir.path)
    let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    #expect(mode == 0o600)
    #expect(try DirectoryFiles.retentionConfiguration(in: dir.path) == bytes)
  }

  /// A link at the name, even one pointing nowhere, is refused: not read as "no configuration".
  @Test func aDanglingLinkAtTheNameIsRefusedNotTakenForNone() throws {
    let dir = Workspace.fresh()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent(RetentionSetup.fileName).path
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: dir.appendingPathComponent("nowhere.json").path)
    #expect(throws: DatabaseError.self) { _ = try DirectoryFiles.retentionConfiguration(in: dir.path) }
  }
}
