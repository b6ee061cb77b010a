import DashModel
import CoreValues
import Foundation
import Glibc
import Testing
@testable import SubscriberDatabase
import SubscriberStorage

/// The database URL: checked, never printed with its password, and completed from libpq's
/// PGPASSWORD and password file (~/.pgpass) when it has none. No server needed.
@Suite struct DatabaseURLTests {
  @Test func aPortOutsideOneTo65535IsAnErrorNotAnotherPort() {
    #expect(throws: DatabaseError.usage("--db postgres://u:***@127.0.0.1:99999/db: the port must be a number from 1 to 65535")) {
      _ = try DatabaseURL("postgres://u:pw@127.0.0.1:99999/db")
    }
    #expect(throws: (any Error).self) { _ = try DatabaseURL("postgres://u@127.0.0.1:0/db") }
    #expect((try? DatabaseURL("postgres://u@[::1]:65535/db"))?.port == 65535)
    #expect((try? DatabaseURL("postgres://u@db.example.com/db"))?.port == 5432)
  }

  @Test(arguments: ["postgres://u:hunter2@host:abc/db", "postgres:/u:hunter2@host/db", "postgres://u:hunter2@[::1/db",
                    "u:hunter2@host/db", "postgres://u@host/db?password=hunter2&sslmode=require"])
  func aURLThatDoesNotParseIsStillPrintedWithoutItsPassword(_ text: String) {
    do {
      _ = try DatabaseURL(text)
      Issue.record("\(text) was accepted")
    } catch {
      #expect(!error.description.contains("hunter2"), "\(error.description)")
      #expect(!error.description.contains("ter2"), "\(error.description)")
    }
    #expect(!DatabaseURLSource.redacted(text).contains("hunter2"))
  }

  @Test func anAtSignInThePasswordIsRedactedWhole() {
    #expect(DatabaseURLSource.redacted("postgres://u:hun@ter2@host/db") == "postgres://u:***@host/db")
  }

  func passwordFile(_ text: String, mode: mode_t = 0o600) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, mode)
    return path
  }

  @Test func aURLWithoutAPasswordTakesPGPASSWORDThenThePasswordFile() throws {
    let url = try DatabaseURL("postgres://team@db.example.com:6543/subscribers")
    let path = try passwordFile("""
      # comment
      other.example.com:*:*:*:wrong
      db.example.com:6543:subscribers:someone:wrong
      db.example.com:6543:*:team:pa\\:ss\\\\word
      *:*:*:*:fallback
      """)
    defer { unlink(path) }
    var warnings: [String] = []
    #expect(url.withLibpqPassword(environment: ["PGPASSFILE": path], warn: { warnings.append($0) }).password == "pa:ss\\word")
    #expect(url.withLibpqPassword(environment: ["PGPASSFILE": path, "PGPASSWORD": "fromenv"], warn: { warnings.append($0) }).password == "fromenv")
    let other = try DatabaseURL("postgres://team@elsewhere:5432/x")
    #expect(other.withLibpqPassword(environment: ["PGPASSFILE": path], warn: { warnings.append($0) }).password == "fallback")
    let given = try DatabaseURL("postgres://team:typed@db.example.com:6543/subscribers")
    #expect(given.withLibpqPassword(environment: ["PGPASSFILE": path, "PGPASSWORD": "fromenv"], warn: { warnings.append($0) }).password == "typed")
    #expect(warnings.isEmpty)
  }

  @Test func aPasswordFileOthersCanReadIsIgnoredWithAWarning() throws {
    let url = try DatabaseURL("postgres://team@db.example.com/subscribers")
    let path = try passwordFile("*:*:*:*:secret\n", mode: 0o644)
    defer { unlink(path) }
    var warnings: [String] = []
    #expect(url.withLibpqPassword(environment: ["PGPASSFILE": path], warn: { warnings.append($0) }).password == nil)
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("readable by group or others") == true)
    #expect(url.withLibpqPassword(environment: ["HOME": "/nonexistent-home"], warn: { warnings.append($0) }).password == nil)
    #expect(warnings.count == 1)
  }
}
