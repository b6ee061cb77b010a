import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A developer's server that answers every request at once with 200 and a Content-Length, then
/// sends the body one byte every `interval`: the head arrives in time, the whole answer only after
/// `bytes × interval`; one answer per connection (`Connection: close`). What held `deliver` for two
/// minutes and a performance test forever.
///
/// Plain POSIX sockets and threads, not a SwiftNIO server: one cancelled while a trickling
/// connection is still open traps ("Deinited NIOAsyncWriter without calling finish()", seen here
/// once; swift-server/swift-http-server#137), and a test's server must outlive its clients' give-ups.
/// (The same file is in NotificationDeliveryTests and AppStoreAPITests: test targets share no code.)
final class TricklingServer: @unchecked Sendable {
  let bytes: Int
  let interval: Duration
  private let lock = NSLock()
  private var count = 0
  private var stopped = false

  init(bytes: Int = 100, interval: Duration = .milliseconds(50)) {
    self.bytes = bytes
    self.interval = interval
  }

  /// Requests that reached the server (head and body read).
  var requests: Int { lock.withLock { count } }
  private var isStopped: Bool { lock.withLock { stopped } }

  struct CannotListen: Error {}

  /// Runs the server for the duration of `body`, which gets its base URL (`http://127.0.0.1:PORT`;
  /// any path and method is answered the same).
  func serve<T: Sendable>(_ body: @escaping @Sendable (String) async throws -> T) async throws -> T {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw CannotListen() }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound, listen(fd, 16) == 0 else {
      close(fd)
      throw CannotListen()
    }
    let port = UInt16(bigEndian: address.sin_port)
    Thread.detachNewThread { self.acceptLoop(fd) }
    defer {
      lock.withLock { stopped = true }
      // Wakes the blocked accept (Linux); the accepting thread closes the socket itself.
      shutdown(fd, Int32(SHUT_RDWR))
    }
    return try await body("http://127.0.0.1:\(port)")
  }

  private func acceptLoop(_ fd: Int32) {
    while !isStopped {
      let connection = accept(fd, nil, nil)
      if connection < 0 {
        if errno == EINTR { continue }
        break
      }
      Thread.detachNewThread { self.answer(connection) }
    }
    close(fd)
  }

  private func answer(_ connection: Int32) {
    defer { close(connection) }
    var wait = timeval(tv_sec: 5, tv_usec: 0)
    _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    func readMore() -> Bool {
      let n = recv(connection, &buffer, buffer.count, 0)
      guard n > 0 else { return false }
      received += buffer[0..<n]
      return true
    }
    func send(_ data: [UInt8]) -> Bool {
      data.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) == data.count }
    }
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    var headEnd: Int?
    while headEnd == nil {
      guard readMore() else { return }
      headEnd = received.count < 4 ? nil : (0...(received.count - 4)).first { received[$0..<($0 + 4)].elementsEqual(separator) }
    }
    guard let headEnd else { return }
    let head = String(decoding: received[..<headEnd], as: UTF8.self).lowercased()
    let declared = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
      .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
    while received.count - headEnd - 4 < declared {
      guard readMore() else { return }
    }
    lock.withLock { count += 1 }
    guard send(Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(bytes)\r\nConnection: close\r\n\r\n".utf8)) else { return }
    let pause = UInt32(interval.components.seconds) * 1_000_000 + UInt32(interval.components.attoseconds / 1_000_000_000_000)
    for _ in 0..<bytes {
      // The client gave up (the write fails) or the test is over: either way this answer ends.
      guard !isStopped, send(Array(" ".utf8)) else { return }
      usleep(pause)
    }
  }
}
