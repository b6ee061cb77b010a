import AppStoreSigning
import DashModel
import Foundation
import Testing
import CoreValues

/// What `subdash listen` tells a remote sender over HTTP: a malformed request is the sender's
/// fault (400), and a local failure (500) names no file, errno or file content; those go to the
/// receiver's own log, with a reference to find them by.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ListenAnswerTests {
  /// The binary on a loopback port over `directory`, its stderr kept for the log checks.
  final class Listener {
    let process = Process()
    let stderr: URL
    let port: Int

    init(directory: URL, root: URL) throws {
      stderr = directory.appendingPathComponent("listen.log")
      FileManager.default.createFile(atPath: stderr.path, contents: nil)
      process.executableURL = ListenServerTests.binary
      process.arguments = ["--port", "0", "--root", root.path, "--bundle-id", "com.example.subdash",
                           directory.appendingPathComponent("subscribers").path]
      let out = Pipe()
      process.standardOutput = out
      process.standardError = try FileHandle(forWritingTo: stderr)
      try process.run()
      var line = Data()
      while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([0x0A]) { line += byte }
      let text = String(decoding: line, as: UTF8.self)
      guard let port = text.split(separator: ":").dropFirst(2).first.flatMap({ Int($0.prefix { $0.isNumber }) }) else {
        throw POSIXError(.EPROTO)
      }
      self.port = port
    }

    var log: String { (try? String(contentsOf: stderr, encoding: .utf8)) ?? "" }

    func stop() {
      process.terminate()
      process.waitUntilExit()
    }

    /// One raw HTTP/1.1 request; the whole answer (head and body) as the server sent it.
    func exchange(_ request: String) throws -> String {
      let connection = try RawConnection(port: port)
      connection.send(request)
      return connection.readAll(timeout: 5)
    }

    func post(_ body: [UInt8]) throws -> String {
      let text = String(decoding: body, as: UTF8.self)
      return try exchange("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n\(text)")
    }
  }

  static func workspace() throws -> (URL, URL) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-listen-answers-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("subscribers"), withIntermediateDirectories: true)
    let root = dir.appendingPathComponent("root.der")
    try Data(LocalAppStore.ca.rootDER).write(to: root)
    return (dir, root)
  }

  /// A chunk size that is not hexadecimal is a malformed request, not a body over the limit.
  @Test func aMalformedChunkSizeIsABadRequest() async throws {
    let (dir, root) = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    let listener = try Listener(directory: dir, root: root)
    defer { listener.stop() }
    let answer = try listener.exchange("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
    #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(200))")
    // A body really over the limit is still 413, chunked or not.
    let chunk = String(repeating: " ", count: 300_000)
    let large = try listener.exchange("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n\(String(chunk.utf8.count, radix: 16))\r\n\(chunk)\r\n0\r\n\r\n")
    #expect(large.hasPrefix("HTTP/1.1 413"), "\(large.prefix(200))")
    // And the server still takes a notification.
    #expect(try listener.post(try LocalAppStore.body("SUBSCRIBED", subtype: "INITIAL_BUY")).hasPrefix("HTTP/1.1 200"))
  }

  /// Every method but POST is 405 with Allow: POST, TRACE included (it was 404: no route took it).
  @Test func traceIsMethodNotAllowed() async throws {
    let (dir, root) = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    let listener = try Listener(directory: dir, root: root)
    defer { listener.stop() }
    for path in ["/", "/hook/v2"] {
      let answer = try listener.exchange("TRACE \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
      #expect(answer.hasPrefix("HTTP/1.1 405") && answer.lowercased().contains("allow: post"), "\(answer.prefix(200))")
    }
  }

  /// A subscriber file that does not read (here: a secret where its JSON should be) fails the
  /// write: the sender learns only that it was not applied and a reference; the log has the rest.
  @Test func aFailedWriteTellsTheSenderNothingLocal() async throws {
    let (dir, root) = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    let secret = "db-password=hunter2 not JSON"
    try Data(secret.utf8).write(to: dir.appendingPathComponent("subscribers/2000000100.json"))
    let listener = try Listener(directory: dir, root: root)
    defer { listener.stop() }
    let answer = try listener.post(try LocalAppStore.body("DID_RENEW", period: 2))
    #expect(answer.hasPrefix("HTTP/1.1 500"), "\(answer.prefix(200))")
    let body = String(answer.split(separator: "\r\n\r\n", maxSplits: 1).last ?? "")
    for local in ["2000000100.json", "hunter2", dir.path, "subscribers", "errno", "No such file"] {
      #expect(!body.contains(local), "the answer tells the sender \(local): \(body)")
    }
    let ref = try #require(body.firstMatch(of: /ref ([0-9a-f]{8,})/)?.1, "no reference in \(body)")
    #expect(body.contains("not applied; see the receiver's log (ref \(ref))"), "\(body)")
    // The log line with the same reference says what went wrong and where.
    let line = try #require(listener.log.split(separator: "\n").first { $0.contains("ref \(ref)") }, "\(listener.log)")
    #expect(line.contains("2000000100.json"), "\(line)")
  }
}
