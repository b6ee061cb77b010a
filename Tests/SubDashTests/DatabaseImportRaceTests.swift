import AppStoreSigning
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `subdash db import DIR` while `subdash listen --db` applies a notification to the same
/// subscriber: the import must not store its older copy over the notification. The order is made
/// certain, not left to timing: another session (psql) holds the subscriber's row lock, the
/// notification arrives and waits for it, then the import starts and waits too; the lock is let
/// go, the receiver commits first, and the import finds the row changed since it looked.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["SUBDASH_TEST_DB"] != nil, "SUBDASH_TEST_DB is not set (scripts/postgres-test-server.sh start)"),
       .timeLimit(.minutes(2)))
struct DatabaseImportRaceTests {
  static let ca = try! LocalCertificateAuthority.create()

  @Test func anImportNeverOverwritesANotificationAConcurrentListenApplied() async throws {
    let db = try TeamDatabase()
    defer { db.drop() }
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-import-race-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: work) }
    FileManager.default.createFile(atPath: work + "/root.der", contents: Data(Self.ca.rootDER))

    // A receiver on the team database, and the subscriber's first notification through it.
    let listen = try Started(["listen", "--port", "0", "--root", work + "/root.der"], environment: ["SUBDASH_DB": db.url])
    defer { listen.stop() }
    let base = try #require(listen.firstLine().split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }).description
    let otid = String(4_000_000_000 + Int.random(in: 0..<900_000_000))
    #expect(try await Self.post(Self.notification(otid: otid, period: 1), to: base).status == 200)

    // What a teammate exported yesterday: the subscriber as the database holds it now.
    let exported = work + "/exported"
    #expect(try Self.subdash(["db", "export", exported], environment: ["SUBDASH_DB": db.url]).status == 0)

    // Another session holds the row; the second notification waits for it.
    let holder = try db.lockRow(named: otid + ".json")
    let renewal = UUID().uuidString.lowercased()
    async let answer = Self.post(Self.notification(otid: otid, period: 2, uuid: renewal), to: base)
    #expect(db.waitUntilBlocked(count: 1), "the notification never waited for the row")
    // The import reads the rows' versions and the directory, then waits for the row too.
    let importing = try Started(["db", "import", exported], environment: ["SUBDASH_DB": db.url])
    #expect(db.waitUntilBlocked(count: 2), "the import never waited for the row")
    holder.commit()

    #expect(try await answer.status == 200)
    let imported = importing.wait()
    #expect(imported.status == 75, "import: \(imported.stdout) \(imported.stderr)")
    #expect(imported.stderr.contains("\(otid).json: another writer changed this subscriber"), "\(imported.stderr)")
    let after = work + "/after"
    #expect(try Self.subdash(["db", "export", after], environment: ["SUBDASH_DB": db.url]).status == 0)
    // The subscriber's file and its journal, whatever the journal is called.
    let written = try FileManager.default.contentsOfDirectory(atPath: after).filter { $0.hasPrefix(otid) }
    let held = try written.map { try String(contentsOfFile: after + "/" + $0, encoding: .utf8) }.joined()
    #expect(held.contains(renewal), "the renewal the receiver applied was overwritten by the import")
  }

  // MARK: - Helpers

  /// A database of its own on the test server (psql), dropped at the end.
  struct TeamDatabase {
    let server: String
    let name = "subdash_race_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
    var url: String { server + "/" + name }

    init() throws {
      let test = try #require(ProcessInfo.processInfo.environment["SUBDASH_TEST_DB"])
      server = String(test[..<(test.lastIndex(of: "/") ?? test.endIndex)])
      #expect(Self.psql(server + "/postgres", "CREATE DATABASE \(name)") != nil)
    }

    func drop() { _ = Self.psql(server + "/postgres", "DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }

    /// Sessions of this database waiting for a lock another holds, polled for up to 10 s.
    func waitUntilBlocked(count: Int) -> Bool {
      let sql = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND cardinality(pg_blocking_pids(pid)) > 0"
      let deadline = ContinuousClock.now + .seconds(10)
      while ContinuousClock.now < deadline {
        if let n = Self.psql(url, sql).flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }), n >= count { return true }
        usleep(20_000)
      }
      return false
    }

    /// An open transaction holding the row's lock (`SELECT … FOR UPDATE`) until `commit()`.
    func lockRow(named row: String) throws -> RowHolder {
      let p = Process()
      p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      p.arguments = ["psql", "-qAt", "-v", "ON_ERROR_STOP=1", url]
      let input = Pipe(), output = Pipe()
      p.standardInput = input
      p.standardOutput = output
      p.standardError = FileHandle.nullDevice
      try p.run()
      input.fileHandleForWriting.write(Data("BEGIN;\nSELECT 'locked:' || name FROM subdash_subscribers WHERE name = '\(row)' FOR UPDATE;\n".utf8))
      var line = Data()
      while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([0x0A]) { line += byte }
      #expect(String(decoding: line, as: UTF8.self) == "locked:\(row)")
      return RowHolder(process: p, input: input)
    }

    static func psql(_ url: String, _ sql: String) -> String? {
      let p = Process()
      p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      p.arguments = ["psql", "-qAt", "-v", "ON_ERROR_STOP=1", url, "-c", sql]
      let out = Pipe()
      p.standardOutput = out
      p.standardError = FileHandle.nullDevice
      guard (try? p.run()) != nil else { return nil }
      let data = out.fileHandleForReading.readDataToEndOfFile()
      p.waitUntilExit()
      return p.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }
  }

  struct RowHolder {
    let process: Process
    let input: Pipe
    func commit() {
      input.fileHandleForWriting.write(Data("COMMIT;\n".utf8))
      try? input.fileHandleForWriting.close()
      process.waitUntilExit()
    }
  }

  /// A `subdash` command running in the background.
  final class Started: @unchecked Sendable {
    let process = Process()
    let out = Pipe(), err = Pipe()
    init(_ args: [String], environment: [String: String]) throws {
      process.executableURL = CommandLineTests.binary
      process.arguments = args
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = out
      process.standardError = err
      try process.run()
    }

    func firstLine() throws -> String {
      var line = Data()
      while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([0x0A]) { line += byte }
      return String(decoding: line, as: UTF8.self)
    }

    func wait() -> CommandLineTests.Run {
      let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return .init(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    func stop() {
      if process.isRunning { process.terminate() }
      process.waitUntilExit()
    }
  }

  static func subdash(_ args: [String], environment: [String: String]) throws -> CommandLineTests.Run {
    let started = try Started(args, environment: environment)
    return started.wait()
  }

  static func post(_ body: [UInt8], to base: String) async throws -> (status: Int, text: String) {
    var request = URLRequest(url: try #require(URL(string: base + "/")))
    request.httpMethod = "POST"
    request.httpBody = Data(body)
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.timeoutInterval = 30
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
  }

  /// A DID_RENEW for subscriber `otid`'s `period`th month, signed by the test CA as Apple signs.
  static func notification(otid: String, period n: Int, uuid: String = UUID().uuidString.lowercased()) throws -> [UInt8] {
    let day: Int64 = 86_400_000, start: Int64 = 1_780_000_000_000
    let purchase = start + Int64(n - 1) * 30 * day
    let transaction = """
      {"transactionId":"\(otid)\(n)","originalTransactionId":"\(otid)","productId":"com.example.monthly","bundleId":"com.example.subdash",\
      "purchaseDate":\(purchase),"originalPurchaseDate":\(start),"expiresDate":\(purchase + 30 * day),"signedDate":\(purchase + 1000),\
      "environment":"Sandbox","type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED","price":9990,"currency":"USD",\
      "subscriptionGroupIdentifier":"21000001","transactionReason":"\(n == 1 ? "PURCHASE" : "RENEWAL")","storefront":"USA"}
      """
    let notification = """
      {"notificationType":"DID_RENEW","notificationUUID":"\(uuid)","version":"2.0","signedDate":\(purchase + 1000),\
      "data":{"bundleId":"com.example.subdash","environment":"Sandbox","status":1,\
      "signedTransactionInfo":"\(try ca.sign(payloadJSON: Array(transaction.utf8)))"}}
      """
    return Array(#"{"signedPayload":"\#(try ca.sign(payloadJSON: Array(notification.utf8)))"}"#.utf8)
  }
}
