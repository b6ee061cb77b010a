@testable import AppStoreAPI
import Crypto
import Foundation
import Testing

@Suite("Where credentials come from")
struct CredentialLoaderTests {
  let dir: String
  let team = Team()

  init() throws {
    dir = NSTemporaryDirectory() + "subdash-cred-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
  }

  func write(_ name: String, _ text: String, mode: Int) throws -> String {
    let path = dir + "/" + name
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    return path
  }

  @Test("flags beat environment variables, which beat the profile")
  func precedence() throws {
    let key = try write("SubscriptionKey_TESTKEY123.p8", team.key.pemRepresentation, mode: 0o600)
    let profile = try write("appstore.profile", """
      # team credentials
      key-file = SubscriptionKey_TESTKEY123.p8
      key-id = FROMPROFILE
      issuer-id = issuer-from-profile
      bundle-id = com.example.profile
      """, mode: 0o600)
    let env = ["SUBDASH_APPSTORE_PROFILE": profile, "SUBDASH_APPSTORE_ISSUER_ID": "issuer-from-env", "SUBDASH_APPSTORE_KEY_ID": "FROMENV"]
    let c = try CredentialLoader.load(flags: .init(keyID: "FROMFLAG"), environment: env)
    #expect(c.keyID == "FROMFLAG")
    #expect(c.issuerID == "issuer-from-env")
    #expect(c.bundleID == "com.example.profile")
    #expect(c.privateKey.publicKey.rawRepresentation == team.key.publicKey.rawRepresentation)
    _ = key
  }

  @Test("a profile or key readable by group or others is refused with the chmod to run")
  func loosePermissions() throws {
    let profile = try write("loose.profile", "key-id = X\n", mode: 0o644)
    #expect(throws: AppStoreAPIError.credentials("\(profile): profile is readable by group or others (mode 644); run chmod 600 \(profile)")) {
      try CredentialLoader.load(flags: .init(profile: profile), environment: [:])
    }
    let key = try write("loose.p8", team.key.pemRepresentation, mode: 0o640)
    #expect(throws: AppStoreAPIError.credentials("\(key): key file is readable by group or others (mode 640); run chmod 600 \(key)")) {
      try CredentialLoader.load(flags: .init(keyFile: key, keyID: "K", issuerID: "I", bundleID: "B"), environment: [:])
    }
  }

  @Test("a missing value names the flag, the variable and the profile key")
  func missing() throws {
    #expect(throws: AppStoreAPIError.credentials("missing --issuer-id (or SUBDASH_APPSTORE_ISSUER_ID, or `issuer-id = …` in a profile)")) {
      try CredentialLoader.load(flags: .init(keyFile: "/nonexistent", keyID: "K", bundleID: "B"), environment: [:])
    }
  }

  @Test("a profile typo points at its line; a bad key file never echoes its content")
  func badInput() throws {
    let profile = try write("typo.profile", "key-id = K\nissuer = I\n", mode: 0o600)
    #expect(throws: AppStoreAPIError.credentials("\(profile):2: unknown key `issuer` (expected key-file, key-id, issuer-id, bundle-id)")) {
      try CredentialLoader.load(flags: .init(profile: profile), environment: [:])
    }
    let notKey = try write("secret.p8", "-----BEGIN PRIVATE KEY-----\nTOPSECRETMATERIAL\n-----END PRIVATE KEY-----\n", mode: 0o600)
    #expect(throws: AppStoreAPIError.credentials("\(notKey): not a P-256 private key in PEM (.p8 \"BEGIN PRIVATE KEY\") form")) {
      try CredentialLoader.load(flags: .init(keyFile: notKey, keyID: "K", issuerID: "I", bundleID: "B"), environment: [:])
    }
  }
}
