import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Glibc
import Testing

/// A support engineer's session against the local App Store (issue 22 §6, §7): `serve` says what
/// it answers and prints a curl line that works as pasted, `subdash token` makes the bearer token
/// from the key options serve takes, serve's log lines say `serve`, and `fetch` from serve finds
/// the notifications of a file whose simulated clock is months from the wall clock.
@Suite(.serialized) struct ServeSessionTests {
  struct Server {
    let process: Process
    let port: Int
    let stdout: String
    let stderr: Pipe
    let dir: URL
    var key: String { dir.appendingPathComponent("key.p8").path }
    var ca: String { dir.appendingPathComponent("ca/root.pem").path }

    /// Stops the server; its log (stderr).
    func stop() -> String {
      kill(process.processIdentifier, SIGTERM)
      process.waitUntilExit()
      return String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
  }

  static let bundleID = "com.example.birdwatch"

  func subdash(_ args: [String]) throws -> CommandLineTests.Run {
    try CommandLineTests.run(args, environment: ["PATH": "/usr/bin:/bin", "HOME": FileManager.default.temporaryDirectory.path])
  }

  /// `subdash serve` on a free loopback port over a copy of Examples/active.json (Sandbox, its
  /// clock in May 2026), once it has printed its curl line.
  func startServe() throws -> Server {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-serve-session-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("subs"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: DemoStateTests.repoRoot.appendingPathComponent("Examples/active.json"),
                                     to: dir.appendingPathComponent("subs/active.json"))
    try Data(ServeKeyTests.privateKey.utf8).write(to: dir.appendingPathComponent("key.p8"))
    chmod(dir.appendingPathComponent("key.p8").path, 0o600)
    let p = Process()
    p.executableURL = CommandLineTests.binary
    p.arguments = ["serve", "--port", "0", "--key-id", "KEY1", "--issuer-id", "issuer-1", "--key", dir.appendingPathComponent("key.p8").path,
                   "--bundle-id", Self.bundleID, "--ca", dir.appendingPathComponent("ca").path, dir.appendingPathComponent("subs").path]
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = FileHandle.nullDevice
    try p.run()
    // Bounded: a server that has not printed its curl line in 10 s is stopped (EOF ends the read).
    let deadline = DispatchWorkItem { if p.isRunning { kill(p.processIdentifier, SIGTERM) } }
    DispatchQueue.global().asyncAfter(deadline: .now() + 10, execute: deadline)
    var text = ""
    while !text.contains("\ntry: ") || !text.hasSuffix("\n") {
      let data = out.fileHandleForReading.availableData
      if data.isEmpty { break }
      text += String(decoding: data, as: UTF8.self)
    }
    deadline.cancel()
    let port = text.split(separator: "\n").first.flatMap { $0.split(separator: ":").last }.flatMap { Int($0.split(separator: " ")[0]) }
    guard let port else {
      if p.isRunning { kill(p.processIdentifier, SIGTERM) }
      throw ServeFailed(output: text)
    }
    return Server(process: p, port: port, stdout: text, stderr: err, dir: dir)
  }

  struct ServeFailed: Error { var output: String }

  @Test func servePrintsItsEndpointsAndACurlLineThatWorksAsPasted() async throws {
    let server = try startServe()
    defer { try? FileManager.default.removeItem(at: server.dir) }
    var log = ""
    do {
      #expect(server.stdout.hasPrefix("listening on http://127.0.0.1:\(server.port) → "))
      #expect(server.stdout.contains("GET  /inApps/v1/subscriptions/{transactionId}"))
      #expect(server.stdout.contains("Get Notification History"))
      let curl = try #require(server.stdout.split(separator: "\n").first { $0.hasPrefix("try: curl ") })
      let url = "http://127.0.0.1:\(server.port)/sandbox/inApps/v1/subscriptions/2000000871234560"
      #expect(curl == "try: curl -sS -H \"Authorization: Bearer $(subdash token --key \(server.key) --key-id KEY1 --issuer-id issuer-1 --bundle-id \(Self.bundleID))\" \(url)")
      // What the shell does with the line: the token command, then the request.
      let inner = try #require(curl.range(of: "$(subdash ").flatMap { start in curl.range(of: ")\"", range: start.upperBound..<curl.endIndex).map { curl[start.upperBound..<$0.lowerBound] } })
      let token = try subdash(inner.split(separator: " ").map(String.init))
      #expect(token.status == 0, "\(token.stderr)")
      var request = URLRequest(url: URL(string: url)!)
      request.setValue("Bearer " + token.stdout.trimmingCharacters(in: .whitespacesAndNewlines), forHTTPHeaderField: "Authorization")
      request.timeoutInterval = 10
      let (body, response) = try await URLSession.shared.data(for: request)
      #expect((response as? HTTPURLResponse)?.statusCode == 200)
      #expect(String(decoding: body, as: UTF8.self).contains("\"originalTransactionId\": \"2000000871234560\""))
      log = server.stop()
    } catch {
      _ = server.stop()
      throw error
    }
    // The log says which command wrote it.
    #expect(log.contains("subdash serve: api: 200 GET /sandbox/inApps/v1/subscriptions/2000000871234560"))
    #expect(!log.contains("subdash listen:"))
  }

  @Test func fetchFromServeFindsTheNotificationsOfAFileOnItsOwnClock() throws {
    let server = try startServe()
    defer { try? FileManager.default.removeItem(at: server.dir) }
    let out = server.dir.appendingPathComponent("fetched.json").path
    let r = try subdash(["fetch", "2000000871234560", "-o", out, "--environment", "sandbox", "--key-file", server.key, "--key-id", "KEY1",
                         "--issuer-id", "issuer-1", "--bundle-id", Self.bundleID, "--base-url", "http://127.0.0.1:\(server.port)", "--root", server.ca])
    _ = server.stop()
    #expect(r.status == 0, "\(r.stderr)")
    // The file's clock is May 2026: a window counted back from the wall clock found none of its
    // notifications ("0 new notifications"); the one in the 30 days before its clock is found.
    #expect(r.stderr.contains("created: 5 new transactions, 1 new notification from the App Store Server API"), "\(r.stderr)")
  }

  @Test func tokenRefusesAKeyOthersCanRead() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-token-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let key = dir.appendingPathComponent("key.p8")
    try Data(ServeKeyTests.privateKey.utf8).write(to: key)
    chmod(key.path, 0o644)
    let loose = try subdash(["token", "--key", key.path, "--key-id", "KEY1", "--issuer-id", "issuer-1", "--bundle-id", Self.bundleID])
    #expect(loose.status == 2)
    #expect(loose.stdout.isEmpty)
    #expect(loose.stderr.contains("readable by group or others"))
    chmod(key.path, 0o600)
    let ok = try subdash(["token", "--key", key.path, "--key-id", "KEY1", "--issuer-id", "issuer-1", "--bundle-id", Self.bundleID])
    #expect(ok.status == 0)
    // A JWT: header.claims.signature, the claims a bearer token for the App Store Server API carries.
    let parts = ok.stdout.trimmingCharacters(in: .newlines).split(separator: ".")
    #expect(parts.count == 3)
    var claims = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while claims.count % 4 != 0 { claims += "=" }
    let object = try #require(Data(base64Encoded: claims).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] })
    #expect(object["aud"] as? String == "appstoreconnect-v1")
    #expect(object["bid"] as? String == Self.bundleID)
    #expect(object["iss"] as? String == "issuer-1")
  }
}
