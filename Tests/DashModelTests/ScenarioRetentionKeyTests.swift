import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage
@testable import SimulationRuns
@testable import RetentionMessaging

/// A scenario can name the developer's In-App Purchase key the App Store checks promotional
/// offers with (`retention key`), as `serve` records it from its --key; only a public key.
@Suite("A scenario's retention key line")
struct ScenarioRetentionKeyTests {
  static let publicPEM = """
    -----BEGIN PUBLIC KEY-----
    MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEc0EsQl/YADTBp0TAJEzyiLU8f3xu
    wdn2boqZHKTYglOUnoVGrQJtOFYN4OfZNiH+pJcK2jeHb9gnp6sytOIxRQ==
    -----END PUBLIC KEY-----

    """

  func run(_ script: String, in dir: TempDir) throws -> ScenarioReport {
    try ScenarioRunner(scenario: try ScenarioParser.parse(script, fileName: "key"), scriptDirectory: dir.path, statePath: dir.file("active.json")).run()
  }

  @Test func theKeyIsWrittenBesideTheStateFileAndKeptByLaterLines() throws {
    let dir = TempDir()
    _ = dir.write("active.json", try Examples.text("active.json"))
    _ = dir.write("developer.pem", Self.publicPEM)
    _ = try run("retention key KEY1 issuer-1 com.example.birdwatch developer.pem\nretention url https://example.com/retention\n", in: dir)
    let setup = try RetentionSetup.load(besideStateFile: dir.file("active.json"))
    #expect(setup.inAppPurchaseKeys == [InAppPurchaseKey(keyId: "KEY1", issuerId: "issuer-1", bundleId: "com.example.birdwatch", publicKeyPEM: Self.publicPEM)])
    #expect(setup.realtimeURL == "https://example.com/retention")
  }

  @Test func aPrivateKeyIsRefusedAndNeverCopied() throws {
    let dir = TempDir()
    _ = dir.write("active.json", try Examples.text("active.json"))
    _ = dir.write("secret.p8", "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n")
    #expect {
      try run("retention key KEY1 issuer-1 com.example.birdwatch secret.p8\n", in: dir)
    } throws: { error in
      (error as? ScenarioFailure)?.description.contains("is not a public key in PEM") == true
    }
    #expect(!FileManager.default.fileExists(atPath: dir.file(RetentionSetup.fileName)))
  }

  @Test func aPrivateKeyAfterAPublicOneIsRefusedToo() throws {
    let dir = TempDir()
    _ = dir.write("active.json", try Examples.text("active.json"))
    _ = dir.write("both.pem", Self.publicPEM + "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIB\n-----END EC PRIVATE KEY-----\n")
    #expect {
      try run("retention key KEY1 issuer-1 com.example.birdwatch both.pem\n", in: dir)
    } throws: { error in
      (error as? ScenarioFailure)?.description.contains("is not a public key in PEM") == true
    }
    #expect(!FileManager.default.fileExists(atPath: dir.file(RetentionSetup.fileName)))
  }
}
