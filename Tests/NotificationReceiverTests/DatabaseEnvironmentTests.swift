import AppStoreSigning
import DashModel
import CoreValues
import Foundation
import Testing
@testable import NotificationReceiver
@testable import SubscriberDatabase
@testable import subdash_listen
import SubscriberStorage

/// `subdash listen --db` refuses the other environment's notification as the directory does (409),
/// decided under the subscriber's row lock; the row keeps only its own environment's history.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["SUBDASH_TEST_DB"] != nil, "SUBDASH_TEST_DB is not set: not run (bash scripts/test.sh starts a test server)"),
       .timeLimit(.minutes(2)))
struct DatabaseEnvironmentTests {
  @Test func aProductionNotificationForASandboxSubscriberInTheDatabaseIs409() async throws {
    let url = try DatabaseURL(ProcessInfo.processInfo.environment["SUBDASH_TEST_DB"] ?? "")
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-dbenv-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let id = String(3_000_000_000 + Int.random(in: 0..<900_000_000))
    let verifier = try JWSVerifier(extraRoots: [try TrustedRoot(fileContents: LocalAppStore.ca.rootDER, source: "test root")])
    let (first, second) = try await SubscriberDatabase.open(url) { db in
      try await db.migrate()
      let receiver = NotificationReceiver(verifier: verifier, sink: StoreSink.database(db, scratch: scratch), bundleId: nil)
      let first = await receiver.receive(body: try LocalAppStore.renewal(environment: "Sandbox", otid: id, period: 1), contentType: "application/json")
      let second = await receiver.receive(body: try LocalAppStore.renewal(environment: "Production", otid: id, period: 2), contentType: "application/json")
      return (first, second)
    }
    #expect(first.status == 200, "\(first.message)")
    #expect(second.status == 409 && second.message.contains("a Sandbox subscriber; a Production notification"), "\(second.message)")
    let rows = try await SubscriberDatabase.open(url) { db in try await db.subscribers(named: [id + ".json"]) }
    let exported = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-dbenv-out-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: exported) }
    try DirectoryFiles.write(rows, catalogs: [:], to: exported)
    let state = try StateFile.load(path: exported + "/\(id).json")
    #expect(state.subscriber.latestTransaction?.transactionId == "\(id)1")
    #expect(try StateFile.recentNotifications(state, statePath: exported + "/\(id).json", limit: 10).count == 1)
  }
}
