import Testing
@testable import DashModel
@testable import CoreValues
@testable import RetentionMessaging

/// `subdash db import` stores a directory's Retention Messaging configuration over the database's:
/// the directory's messages, defaults and realtime URL, the database's In-App Purchase keys.
@Suite struct RetentionSetupImportTests {
  static let oldKey = InAppPurchaseKey(keyId: "OLDKEY0001", issuerId: "issuer", bundleId: "com.example.birdwatch",
                                       publicKeyPEM: "-----BEGIN PUBLIC KEY-----\nold\n-----END PUBLIC KEY-----")
  static let teamKey = InAppPurchaseKey(keyId: "TEAMKEY001", issuerId: "issuer", bundleId: "com.example.birdwatch",
                                        publicKeyPEM: "-----BEGIN PUBLIC KEY-----\nteam\n-----END PUBLIC KEY-----")

  /// The directory's file as `serve DIR` wrote it, with the old server's key.
  static func directoryFile() -> [UInt8] {
    let setup = RetentionSetup(messages: ["m1": .init(header: "Before you go", body: "Owls in May.")], defaults: ["pass.family.monthly/en-US": "m1"],
                               realtimeURL: "https://retention.example.com/realtime", inAppPurchaseKeys: [oldKey])
    return JSONWriter.write(setup.json)
  }

  @Test func intoAnEmptyDatabaseTheFileIsStoredByteForByte() {
    #expect(RetentionSetup.keepingStoredKeys(nil, in: Self.directoryFile()) == Self.directoryFile())
  }

  @Test func theDatabasesKeysReplaceTheDirectorysAndEverythingElseIsTheDirectorys() throws {
    let stored = JSONWriter.write(RetentionSetup(realtimeURL: "https://team.example.com/old", inAppPurchaseKeys: [Self.teamKey]).json)
    let merged = try RetentionSetup.parse(RetentionSetup.keepingStoredKeys(stored, in: Self.directoryFile()), path: "merged")
    var expected = try RetentionSetup.parse(Self.directoryFile(), path: "file")
    expected.inAppPurchaseKeys = [Self.teamKey]
    #expect(merged == expected)
  }

  @Test func keysThatAlreadyAgreeLeaveTheFileAsItIs() {
    let stored = JSONWriter.write(RetentionSetup(inAppPurchaseKeys: [Self.oldKey]).json)
    #expect(RetentionSetup.keepingStoredKeys(stored, in: Self.directoryFile()) == Self.directoryFile())
  }

  @Test func aDatabaseDocumentWithoutKeysTakesTheDirectorysAway() throws {
    let stored = JSONWriter.write(RetentionSetup(realtimeURL: "https://team.example.com/realtime").json)
    let merged = try RetentionSetup.parse(RetentionSetup.keepingStoredKeys(stored, in: Self.directoryFile()), path: "merged")
    #expect(merged.inAppPurchaseKeys.isEmpty)
    #expect(merged.realtimeURL == "https://retention.example.com/realtime")
  }

  @Test func aStoredDocumentThatIsNotAnObjectLeavesTheFileAsItIs() {
    #expect(RetentionSetup.keepingStoredKeys(Array("[1]".utf8), in: Self.directoryFile()) == Self.directoryFile())
  }
}
