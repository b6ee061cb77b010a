import AppStoreSigning
import DashModel
import CoreValues
import Foundation
import Testing
@testable import NotificationReceiver
@testable import SubscriberDatabase
@testable import subdash_listen
import SubscriberStorage

/// `subdash listen --db`: two receivers (two `listen` processes' worth of connection pools) take
/// deliveries for the same subscribers at once. Row locks serialise them: every notification is
/// applied exactly once and the latest transaction is the newest, as a serial application gives.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["SUBDASH_TEST_DB"] != nil, "SUBDASH_TEST_DB is not set: not run (bash scripts/test.sh starts a test server)"),
       .timeLimit(.minutes(2)))
struct DatabaseReceiveTests {
  @Test func twoReceiversOnOneDatabaseApplyEveryNotificationExactlyOnce() async throws {
    let url = try DatabaseURL(ProcessInfo.processInfo.environment["SUBDASH_TEST_DB"]!)
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-dbsink-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    // Ids of this run only, so tests sharing the database never meet.
    let base = 3_000_000_000 + Int.random(in: 0..<900_000_000)
    let ids = (0..<3).map { String(base + $0 * 10) }
    var bodies: [[UInt8]] = []
    for id in ids { for n in 1...6 { bodies.append(try LocalAppStore.body("DID_RENEW", otid: id, period: n, uuid: "\(id)-\(n)")) } }
    bodies += bodies.prefix(6)  // redeliveries
    let deliveries = bodies.shuffled()
    let verifier = try JWSVerifier(extraRoots: [try TrustedRoot(fileContents: LocalAppStore.ca.rootDER, source: "test root")])

    let statuses: [Int] = try await SubscriberDatabase.open(url) { first in
      try await first.migrate()
      return try await SubscriberDatabase.open(url) { second in
        let receivers = [first, second].map { NotificationReceiver(verifier: verifier, sink: StoreSink.database($0, scratch: scratch), bundleId: nil) }
        return await withTaskGroup(of: Int.self) { group in
          for (i, body) in deliveries.enumerated() {
            group.addTask { await receivers[i % 2].receive(body: body, contentType: "application/json").status }
          }
          return await group.reduce(into: [Int]()) { $0.append($1) }
        }
      }
    }
    #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")

    let rows = try await SubscriberDatabase.open(url) { db in try await db.subscribers(named: ids.map { $0 + ".json" }) }
    let exported = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-dbsink-out-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: exported) }
    try DirectoryFiles.write(rows, catalogs: [:], to: exported)
    for id in ids {
      let path = exported + "/\(id).json"
      let state = try StateFile.load(path: path)
      let uuids = try StateFile.recentNotifications(state, statePath: path, limit: 100).compactMap(\.notificationUUID)
      #expect(uuids.sorted() == (1...6).map { "\(id)-\($0)" }.sorted())
      #expect(state.subscriber.latestTransaction?.transactionId == "\(id)6")
    }
  }
}
