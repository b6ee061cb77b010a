import AppStoreSigning
import Foundation
import Testing

/// Strangers holding connections open (silent, or trickling a request byte by byte) never keep a
/// real sender waiting: the real `subdash-listen` on a loopback port, driven over raw sockets.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ListenConnectionGuardTests {
  /// A running `subdash-listen` trusting the tests' CA, and its port.
  final class Server {
    let process = Process()
    let port: Int
    let directory: URL

    init(_ options: [String]) throws {
      directory = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-listen-guard-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let root = directory.appendingPathComponent("root.der")
      try Data(LocalAppStore.ca.rootDER).write(to: root)
      process.executableURL = ListenServerTests.binary
      process.arguments = ["--port", "0", "--root", root.path] + options + [directory.appendingPathComponent("subscribers").path]
      let out = Pipe()
      process.standardOutput = out
      process.standardError = FileHandle.nullDevice
      try process.run()
      var line = Data()
      while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([0x0A]) { line += byte }
      port = try #require(String(decoding: line, as: UTF8.self).split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })
    }

    deinit {
      process.terminate()
      process.waitUntilExit()
      try? FileManager.default.removeItem(at: directory)
    }

    /// A real notification on a new connection: the status line, or "" if none came in `timeout`.
    func postNotification(period: Int = 1, timeout: Double) throws -> String {
      let body = try LocalAppStore.body(period: period)
      let connection = try RawConnection(port: port)
      connection.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n")
      connection.send(String(decoding: body, as: UTF8.self))
      return connection.readAll(timeout: timeout).components(separatedBy: "\r\n")[0]
    }
  }

  /// Sends one byte every `interval` until stopped or closed by the server (slow loris).
  final class Trickler: @unchecked Sendable {
    let connection: RawConnection
    private let stop = DispatchSemaphore(value: 0)
    /// Left when the trickling thread ends; waiting on a group does not use up its signal.
    private let finished = DispatchGroup()
    private(set) var closedAfter: Double?

    init(port: Int, prefix: String, interval: Double) throws {
      connection = try RawConnection(port: port)
      connection.send(prefix)
      let started = Date()
      finished.enter()
      Thread.detachNewThread { [self] in
        defer { finished.leave() }
        while stop.wait(timeout: .now() + interval) == .timedOut {
          if !connection.sendChecked("a") || connection.isClosedByPeer() {
            closedAfter = Date().timeIntervalSince(started)
            return
          }
        }
      }
    }

    /// Waits (at most `timeout`) for the server to close the connection; how long it took.
    func waitUntilClosed(timeout: Double) -> Double? {
      _ = finished.wait(timeout: .now() + timeout)
      return closedAfter
    }

    func end() {
      stop.signal()
      _ = finished.wait(timeout: .now() + 5)
    }
  }

  @Test func aClientTricklingItsHeadIsCutOffAtTheHeaderDeadlineNotTheIdleTimeout() throws {
    let server = try Server(["--header-timeout", "1", "--idle-timeout", "30"])
    let loris = try Trickler(port: server.port, prefix: "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", interval: 0.2)
    defer { loris.end() }
    let closed = loris.waitUntilClosed(timeout: 15)
    #expect(closed != nil, "a head sent one byte every 0.2 s was still open after 15 s")
  }

  @Test func aClientTricklingItsBodyIsCutOffAtTheBodyDeadline() throws {
    let server = try Server(["--body-timeout", "1", "--idle-timeout", "30"])
    // Every byte of the body restarts the idle timer: only the body deadline ends this one.
    let loris = try Trickler(port: server.port, prefix: "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{", interval: 0.2)
    defer { loris.end() }
    let closed = loris.waitUntilClosed(timeout: 15)
    #expect(closed != nil, "a body sent one byte every 0.2 s was still open after 15 s")
  }

  @Test func aFullHouseOfSilentAndSlowClientsStillLetsARealNotificationIn() throws {
    // Every deadline far away: only making room can let the real sender in.
    let server = try Server(["--max-connections", "4", "--header-timeout", "60", "--body-timeout", "60", "--idle-timeout", "60"])
    let silent = [try RawConnection(port: server.port), try RawConnection(port: server.port)]
    let slow = try (0..<2).map { _ in
      try Trickler(port: server.port, prefix: "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{", interval: 0.3)
    }
    defer { slow.forEach { $0.end() } }
    let status = try server.postNotification(timeout: 20)
    #expect(status == "HTTP/1.1 200 OK", "the real notification got \(status.isEmpty ? "no answer" : status)")
    // A silent connection gave way (which one depends on which event loop accepted it first); the
    // slow ones, sending for less than a second, were not closed.
    #expect(silent.filter { $0.readAll(timeout: 1).isEmpty && $0.closedByServer }.count == 1)
    #expect(slow.allSatisfy { !$0.connection.isClosedByPeer() })
  }

  /// A sender whose request is on its way, however slowly, is never cut off for a stranger: the
  /// newcomer is refused instead when no connection is idle (the deadlines end slow senders).
  @Test func aClientSendingItsRequestIsNeverClosedForANewcomer() throws {
    let server = try Server(["--max-connections", "2", "--header-timeout", "60", "--body-timeout", "60", "--idle-timeout", "60"])
    let slow = try (0..<2).map { _ in
      try Trickler(port: server.port, prefix: "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{", interval: 0.3)
    }
    defer { slow.forEach { $0.end() } }
    // Sending for well over a second: the old rule closed such a client for a newcomer.
    let sendingSince = Date()
    while Date().timeIntervalSince(sendingSince) < 1.5, slow.allSatisfy({ !$0.connection.isClosedByPeer() }) {
      Thread.sleep(forTimeInterval: 0.1)
    }
    let status = try server.postNotification(timeout: 10)
    #expect(status.isEmpty, "the newcomer was answered (\(status)): a sending client made room for it")
    #expect(slow.allSatisfy { !$0.connection.isClosedByPeer() }, "a client sending its request was closed for a newcomer")
  }

  /// Between two notifications a sender's keep-alive connection is idle too; a silent stranger
  /// opened after it gives way first, so the sender's next request on it is answered.
  @Test func aSendersKeepAliveConnectionOutlivesASilentStrangerOpenedAfterIt() throws {
    let server = try Server(["--max-connections", "2", "--header-timeout", "60", "--body-timeout", "60", "--idle-timeout", "60"])
    let sender = try RawConnection(port: server.port)
    #expect(sender.post(try LocalAppStore.body(period: 1), timeout: 20) == "HTTP/1.1 200 OK")
    // Two silent strangers: one of the three idle connections must give way (the sender's is the
    // oldest, so the old rule closed it).
    let strangers = [try RawConnection(port: server.port), try RawConnection(port: server.port)]
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline, !strangers.contains(where: { $0.isClosedByPeer() }) { Thread.sleep(forTimeInterval: 0.05) }
    #expect(strangers.filter { $0.isClosedByPeer() }.count == 1, "not one silent stranger gave way")
    #expect(sender.post(try LocalAppStore.body(period: 2), timeout: 20) == "HTTP/1.1 200 OK", "the sender's keep-alive connection was closed")
  }
}

extension RawConnection {
  /// One notification on this keep-alive connection: the answer's status line, or "" if the
  /// answer did not come whole within `timeout` (the server closed the connection, say).
  func post(_ body: [UInt8], timeout: Double) -> String {
    send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n")
    send(String(decoding: body, as: UTF8.self))
    var answer: [UInt8] = []
    let deadline = Date().addingTimeInterval(timeout)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while Date() < deadline {
      let text = String(decoding: answer, as: UTF8.self)
      if let end = text.range(of: "\r\n\r\n") {
        let length = text[..<end.lowerBound].split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
          .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        if text.utf8.count - text.utf8.distance(from: text.startIndex, to: end.upperBound) >= length {
          return text.components(separatedBy: "\r\n")[0]
        }
      }
      var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&p, 1, 100) > 0 else { continue }
      let n = read(fd, &buffer, buffer.count)
      if n <= 0 { return "" }
      answer += buffer[0..<n]
    }
    return ""
  }

  /// A write that says whether the server still takes bytes (false once it closed the socket).
  func sendChecked(_ text: String) -> Bool {
    Array(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } > 0
  }

  /// Whether the server closed the connection (a read would return end of file now).
  func isClosedByPeer() -> Bool {
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&p, 1, 0) > 0 else { return false }
    var byte: UInt8 = 0
    return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0
  }
}
