import AppStoreSigning
import DashModel
import CoreValues
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import SubscriberStorage

/// The real `subdash-listen` binary on a loopback port, as a developer runs it: it prints where it
/// listens, takes a notification over HTTP, refuses what is not one, and keeps serving.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ListenServerTests {
  static var binary: URL {
    let dir = Bundle.main.executableURL?.deletingLastPathComponent() ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    return dir.appendingPathComponent("subdash-listen")
  }

  @Test func theServerAppliesANotificationAndRefusesWhatIsNotOne() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-listen-live-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let root = dir.appendingPathComponent("root.der")
    try Data(LocalAppStore.ca.rootDER).write(to: root)
    let subscribers = dir.appendingPathComponent("subscribers")

    let process = Process()
    process.executableURL = Self.binary
    process.arguments = ["--port", "0", "--root", root.path, "--bundle-id", "com.example.subdash", subscribers.path]
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    defer { process.terminate(); process.waitUntilExit() }
    // "listening on http://127.0.0.1:PORT → DIR"
    let text = try #require(firstLine(of: out, within: .seconds(30)), "the receiver did not say where it listens")
    let base = try #require(text.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }).description

    func send(_ method: String, _ body: [UInt8], contentType: String? = "application/json", path: String = "/appstore/notifications") async throws -> (Int, String) {
      var request = URLRequest(url: URL(string: base + path)!)
      request.httpMethod = method
      if method != "GET" { request.httpBody = Data(body) }
      if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
      let (data, response) = try await URLSession.shared.data(for: request)
      return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    let (ok, okText) = try await send("POST", try LocalAppStore.body("SUBSCRIBED", subtype: "INITIAL_BUY"))
    #expect(ok == 200, "\(okText)")
    #expect(okText.contains("created 2000000100.json"))
    #expect(try await send("GET", []).0 == 405)
    #expect(try await send("POST", Array("{}".utf8)).0 == 400)
    #expect(try await send("POST", try LocalAppStore.body(), contentType: "text/plain").0 == 415)
    #expect(try await send("POST", Array(repeating: 0x20, count: 300_000)).0 == 413)
    // The bare root path too: App Store Connect takes any URL.
    #expect(try await send("POST", try LocalAppStore.body("DID_RENEW", period: 2), path: "/").0 == 200)
    #expect(try await send("GET", [], path: "/").0 == 405)
    let state = try StateFile.load(path: subscribers.appendingPathComponent("2000000100.json").path)
    #expect(state.subscriber.latestTransaction?.transactionId == "20000001002")
    #expect(try FileManager.default.contentsOfDirectory(atPath: subscribers.path).filter { $0.hasSuffix(".json") } == ["2000000100.json"])
  }

  /// A silent client is closed at --idle-timeout, a half-sent head at --header-timeout, and a
  /// connection beyond --max-connections is let in at once by closing the longest-idle one (it
  /// used to wait in the backlog until a stalled client timed out).
  @Test func stalledClientsAreClosedAndAConnectionBeyondTheLimitMakesRoom() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-listen-limits-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let process = Process()
    process.executableURL = Self.binary
    process.arguments = ["--port", "0", "--max-connections", "2", "--idle-timeout", "2", "--header-timeout", "2",
                         dir.appendingPathComponent("subscribers").path]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { process.terminate(); process.waitUntilExit() }
    let line = try #require(firstLine(of: out, within: .seconds(30)), "the receiver did not say where it listens")
    let port = try #require(line.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })

    // Two stalled clients: one sends nothing, one half a request head (slowloris).
    let silent = try RawConnection(port: port)
    let halfway = try RawConnection(port: port)
    halfway.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n")
    // A third is over the limit of 2: the silent one (idle) gives way, the third is answered.
    let third = try RawConnection(port: port)
    third.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    #expect(third.readAll(timeout: 10).hasPrefix("HTTP/1.1 405"), "a connection beyond the limit is answered")
    #expect(silent.readAll(timeout: 5).isEmpty && silent.closedByServer, "the idle connection made room")
    _ = halfway.readAll(timeout: 10)  // ends when the server closes it (--header-timeout 2)
    #expect(halfway.closedByServer, "a half-sent request is cut off")
    let fourth = try RawConnection(port: port)
    fourth.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    #expect(fourth.readAll(timeout: 5).hasPrefix("HTTP/1.1 405"), "still serving")
  }
}

/// A plain TCP connection to loopback, for requests no HTTP client would send.
final class RawConnection {
  let fd: Int32
  private(set) var closedByServer = false

  init(port: Int) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = in_port_t(UInt16(port).bigEndian)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    guard rc == 0 else { throw POSIXError(.ECONNREFUSED) }
  }

  deinit { close(fd) }

  func send(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }

  /// Everything the server sends until it closes the connection or `timeout` passes.
  func readAll(timeout: Double) -> String {
    var out: [UInt8] = []
    let deadline = Date().addingTimeInterval(timeout)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while Date() < deadline {
      var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&p, 1, 100) > 0 else { continue }
      let n = read(fd, &buffer, buffer.count)
      if n <= 0 { closedByServer = true; break }
      out += buffer[0..<n]
    }
    return String(decoding: out, as: UTF8.self)
  }
}
