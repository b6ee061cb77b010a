import AppStoreSigning
import DashModel
import CoreValues
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import NotificationReceiver
@testable import SubscriberDatabase
@testable import subdash_listen

#if canImport(Glibc)
import Glibc
#endif
import SubscriberStorage

/// `subdash listen --db`: another session keeps a subscriber's lock (an open transaction, a
/// dashboard's long write): that subscriber's notification is answered 503 with Retry-After within
/// the bound, and another subscriber's goes through at once. And the scratch directory every
/// processed customer passes through is private, at a name nobody could have made first.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["SUBDASH_TEST_DB"] != nil, "SUBDASH_TEST_DB is not set: not run (bash scripts/test.sh starts a test server)"),
       .timeLimit(.minutes(1)))
struct DatabaseLockedSubscriberTests {
  static var url: DatabaseURL { get throws { try DatabaseURL(ProcessInfo.processInfo.environment["SUBDASH_TEST_DB"]!) } }

  @Test func aRowLockedByAnotherSessionGets503AndAnotherSubscriberIsAnswered() async throws {
    let scratch = try PrivateDirectory.makeTemporary("subdash-dbsink-test")
    defer { PrivateDirectory.remove(scratch) }
    let base = 3_000_000_000 + Int.random(in: 0..<900_000_000)
    let a = String(base), b = String(base + 1)
    let verifier = try JWSVerifier(extraRoots: [try TrustedRoot(fileContents: LocalAppStore.ca.rootDER, source: "test root")])
    try await SubscriberDatabase.open(try Self.url) { holderDB in
      try await holderDB.migrate()
      // The other session: holds A's lock for 30 s (on code without a bound, A's answer waits for
      // it). Times are checked against that, not to the second: the suite runs in parallel.
      let holds = Tally()
      let holding = Task {
        try await holderDB.update("\(a).json") { _ in
          holds.add()  // the change runs with the row's lock held
          try await Task.sleep(for: .seconds(30))
          return nil
        }
      }
      try #require(await eventually(within: .seconds(20)) { holds.count > 0 }, "the other session never held A's lock")
      try await SubscriberDatabase.open(try Self.url) { db in
        let receiver = NotificationReceiver(verifier: verifier, sink: StoreSink.database(db, scratch: scratch), bundleId: nil)
        let started = ContinuousClock.now
        async let forA = receiver.receive(body: try LocalAppStore.body("DID_RENEW", otid: a), contentType: "application/json")
        let forB = await receiver.receive(body: try LocalAppStore.body("DID_RENEW", otid: b), contentType: "application/json")
        #expect(forB.status == 200, "\(forB.message)")
        #expect(ContinuousClock.now - started < FileLock.maxWait, "B waited behind A's row lock")
        let answerA = try await forA
        let took = ContinuousClock.now - started
        #expect(answerA.status == 503, "\(answerA.message)")
        #expect(answerA.retryAfterSeconds == 5)
        #expect(took >= .seconds(4), "A answered after \(took), before the lock's bound")  // the 503 itself says it gave up
        #expect(try await db.subscribers(named: ["\(a).json"]).isEmpty, "nothing written for A")
      }
      holding.cancel()
      _ = try? await holding.value
    }
  }

  /// The real binary: `listen --db` works in `$TMPDIR/subdash-listen-XXXXXX` made by mkdtemp, 0700
  /// and ours (it was `/tmp/subdash-listen-<pid>`, 0755, and taken over if someone made it first),
  /// and removes it when stopped.
  @Test func listenWorksInAPrivateUnpredictableScratchDirectoryAndRemovesIt() async throws {
    let tmp = try PrivateDirectory.makeTemporary("subdash-listen-tmpdir-test")
    defer { PrivateDirectory.remove(tmp) }
    #expect(chmod(tmp, 0o755) == 0)  // a temporary directory others can read, as /tmp is
    let root = tmp + "/root.der"
    FileManager.default.createFile(atPath: root, contents: Data(LocalAppStore.ca.rootDER))
    let process = Process()
    process.executableURL = ListenServerTests.binary
    process.arguments = ["--port", "0", "--root", root, "--db", ProcessInfo.processInfo.environment["SUBDASH_TEST_DB"]!]
    process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": tmp]) { $1 }
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
    var line = Data()
    while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([0x0A]) { line += byte }
    let base = try #require(String(decoding: line, as: UTF8.self).split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }).description
    var request = URLRequest(url: URL(string: base + "/")!)
    request.httpMethod = "POST"
    request.httpBody = Data(try LocalAppStore.body("DID_RENEW", otid: String(3_000_000_000 + Int.random(in: 0..<900_000_000))))
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    let (_, response) = try await URLSession.shared.data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)

    let scratch = try FileManager.default.contentsOfDirectory(atPath: tmp).filter { $0.hasPrefix("subdash-listen") }
    #expect(scratch.count == 1)
    let name = try #require(scratch.first)
    #expect(name != "subdash-listen-\(process.processIdentifier)", "a name anyone could have made first")
    var st = stat()
    #expect(lstat(tmp + "/" + name, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR)
    #expect(st.st_mode & 0o777 == 0o700)
    #expect(st.st_uid == geteuid())

    process.terminate()
    process.waitUntilExit()
    #expect(!FileManager.default.fileExists(atPath: tmp + "/" + name), "removed when listen stops")
  }
}

