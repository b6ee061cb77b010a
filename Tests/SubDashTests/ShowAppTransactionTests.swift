import DashModel
import Foundation
import Testing
import CoreValues
import SubscriberImport

/// `show --json` and plain `show` (the built binary) carry the app transaction `fetch` recorded.
@Suite struct ShowAppTransactionTests {
  /// Examples/active.json with an `appTransaction` as fetch writes it, in a private directory.
  func fetchedFile() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-apptx-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let example = DemoStateTests.repoRoot.appendingPathComponent("Examples/active.json")
    guard case .object(var document) = try JSONParser.parse(Array(try Data(contentsOf: example))) else {
      throw CocoaError(.fileReadCorruptFile)
    }
    FetchedAppTransaction(appTransactionId: "704289572311151820", originalPurchaseDate: Instant(ms: 1_767_312_000_000),
                          originalApplicationVersion: "1.0", environment: "Sandbox", signature: "trusted root")
      .write(into: &document)
    let path = dir.appendingPathComponent("active.json").path
    try Data(JSONWriter.string(.object(document)).utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func showJSONHasTheAppTransactionWithItsDates() throws {
    let r = try CommandLineTests().run(["show", "--json", try fetchedFile()])
    #expect(r.status == 0, "\(r.stderr)")
    let o = try #require(try JSONParser.parse(Array(r.stdout.utf8)).objectValue)
    let app = try #require(o["appTransaction"]?.objectValue)
    #expect(app["appTransactionId"] == .string("704289572311151820"))
    #expect(app["originalPurchaseDate"] == .double(1_767_312_000_000))
    #expect(app["originalPurchaseDateISO"]?.stringValue?.hasPrefix("2026-01-02T00:00:00") == true)
    #expect(app["originalApplicationVersion"] == .string("1.0"))
    #expect(app["environment"] == .string("Sandbox") && app["signature"] == .string("trusted root"))
    // A file fetch never touched has no such key.
    let plain = try CommandLineTests().run(["show", "--json", DemoStateTests.repoRoot.appendingPathComponent("Examples/active.json").path])
    #expect(try JSONParser.parse(Array(plain.stdout.utf8)).objectValue?["appTransaction"] == nil)
  }

  @Test func plainShowHasItUnderTheIdentifiers() throws {
    let r = try CommandLineTests().run(["show", try fetchedFile()])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("\napp transaction 704289572311151820 · first installed version 1.0 · app purchased 2026-01-02 00:00 UTC · Sandbox, trusted root\n"))
  }
}
