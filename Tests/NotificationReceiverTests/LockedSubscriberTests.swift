import AppStoreSigning
import DashModel
import CoreValues
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import NotificationReceiver

#if canImport(Glibc)
import Glibc
#endif
import SubscriberStorage
import SubscriberImport

/// Another local user holds one subscriber's lock (its byte of the directory's lock file
/// `DIR/.subdash.lock`, which anyone who can open it can lock): that subscriber's notifications are
/// answered 503 with Retry-After within the bound and nothing is written; every other subscriber is
/// answered as usual, at once, even with more requests for the locked one than the receiver has
/// file threads.
@Suite(.serialized, .timeLimit(.minutes(1))) struct LockedSubscriberTests {
  /// Another process's lock: a `FileLock` of our own (an open-file-description lock, which belongs
  /// to the open file, so this conflicts exactly as another process's would).
  final class HeldLock: @unchecked Sendable {
    private let lock = NSLock()
    private var held: FileLock?
    init(_ path: String) throws {
      held = try FileLock(for: path, wait: .tryOnce)
    }
    /// Once only, from any thread.
    func release() {
      lock.withLock { held = nil }
    }
  }

  @Test func aLockedSubscriberGets503WithRetryAfterAndAnotherIsAnsweredAtOnce() async throws {
    let store = try LocalAppStore()
    defer { store.remove() }
    let a = "2000000301", b = "2000000302"
    let held = try HeldLock(store.directory.appendingPathComponent("\(a).json").path)
    // On code that waits for the lock without a bound, the holder gives up after 30 s, so the test
    // ends (failing) instead of hanging. The bound is shown by answers well before that, not to
    // the second: the whole suite runs in parallel on two cores.
    let safety = Task { try await Task.sleep(for: .seconds(30)); held.release() }
    defer { safety.cancel() }
    let bodiesForA = try (1...12).map { try LocalAppStore.body("DID_RENEW", otid: a, period: $0) }
    // The directory's own sink, counted: a request is in flight once it has reached the store.
    let reached = Tally()
    let receiver = NotificationReceiver(verifier: try JWSVerifier(extraRoots: [try TrustedRoot(fileContents: LocalAppStore.ca.rootDER, source: "test root")]),
                                        sink: CountedSink(inner: DirectorySink(directory: store.directory.path), reached: reached), bundleId: "com.example.subdash")
    let started = ContinuousClock.now
    async let forA: [(NotificationReceiver.Outcome, Duration)] = withTaskGroup(of: (NotificationReceiver.Outcome, Duration).self) { group in
      for body in bodiesForA {
        group.addTask {
          let outcome = await receiver.receive(body: body, contentType: "application/json")
          return (outcome, ContinuousClock.now - started)
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    // B arrives once A's twelve requests are in flight (more than the 8 file threads).
    try #require(await eventually(within: .seconds(20)) { reached.count == bodiesForA.count }, "A's requests never all reached the store")
    let bStart = ContinuousClock.now
    let forB = await receiver.receive(body: try LocalAppStore.body("SUBSCRIBED", subtype: "INITIAL_BUY", otid: b), contentType: "application/json")
    let bTook = ContinuousClock.now - bStart
    #expect(forB.status == 200, "\(forB.message)")
    #expect(bTook < FileLock.maxWait, "B waited \(bTook) behind A's lock")

    let answers = await forA
    for (outcome, at) in answers {
      #expect(outcome.status == 503, "\(outcome.message)")
      #expect(outcome.retryAfterSeconds == 5)
      #expect(outcome.message.contains("\(a).json is locked by another process"), "\(outcome.message)")
      #expect(at < FileLock.maxWait + .seconds(15), "answered after \(at)")
    }
    #expect(!store.files.contains("\(a).json"), "nothing written for the locked subscriber")
    #expect(store.files.contains("\(b).json"))

    // Once released, the sender's retry goes through.
    held.release()
    safety.cancel()
    #expect(await store.post(bodiesForA[0]).status == 200)
  }

  /// `listen DIR` creates DIR (and missing parents) 0700: it holds every customer's file.
  @Test func theDirectoryListenCreatesIsPrivate() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-listen-mode-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    let subscribers = dir.appendingPathComponent("team/subscribers")
    let process = Process()
    process.executableURL = ListenServerTests.binary
    process.arguments = ["--port", "0", subscribers.path]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { process.terminate(); process.waitUntilExit() }
    var line = Data()
    while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([0x0A]) { line += byte }
    for path in [dir.path, dir.appendingPathComponent("team").path, subscribers.path] {
      var st = stat()
      #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o700, "\(path): \(String(st.st_mode & 0o777, radix: 8))")
    }
  }

  /// Through HTTP, as Apple sees it: the real binary answers 503 with a Retry-After header.
  @Test func theServerSendsRetryAfterWithThe503() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-listen-locked-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let root = dir.appendingPathComponent("root.der")
    try Data(LocalAppStore.ca.rootDER).write(to: root)
    let subscribers = dir.appendingPathComponent("subscribers")
    try FileManager.default.createDirectory(at: subscribers, withIntermediateDirectories: true)
    let held = try HeldLock(subscribers.appendingPathComponent("2000000100.json").path)
    let safety = Task { try await Task.sleep(for: .seconds(12)); held.release() }
    defer { safety.cancel(); held.release() }

    let process = Process()
    process.executableURL = ListenServerTests.binary
    process.arguments = ["--port", "0", "--root", root.path, subscribers.path]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { process.terminate(); process.waitUntilExit() }
    var line = Data()
    while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([0x0A]) { line += byte }
    let base = try #require(String(decoding: line, as: UTF8.self).split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }).description

    var request = URLRequest(url: URL(string: base + "/")!, timeoutInterval: 30)
    request.httpMethod = "POST"
    request.httpBody = Data(try LocalAppStore.body("DID_RENEW"))
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    let started = ContinuousClock.now
    let (data, response) = try await URLSession.shared.data(for: request)
    let took = ContinuousClock.now - started
    let http = try #require(response as? HTTPURLResponse)
    #expect(http.statusCode == 503, "\(String(decoding: data, as: UTF8.self))")
    #expect(http.value(forHTTPHeaderField: "Retry-After") == "5")
    #expect(took >= .seconds(4), "answered after \(took), before the lock's bound")  // the 503 itself says it gave up
    #expect(!FileManager.default.fileExists(atPath: subscribers.appendingPathComponent("2000000100.json").path))
  }
}

/// The real sink, with a count of the requests that reached it (past verification, at the store).
struct CountedSink: SubscriberSink {
  let inner: any SubscriberSink
  let reached: Tally
  func apply(_ input: ImportInput, verdicts: any SignedDataChecking, originalTransactionId: String, payloadDigest: String?) async throws -> Applied {
    reached.add()
    return try await inner.apply(input, verdicts: verdicts, originalTransactionId: originalTransactionId, payloadDigest: payloadDigest)
  }
}
