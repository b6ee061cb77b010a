import ArgumentParser
import Foundation

/// A native load generator for `listen` (docs/notifications.md, "Load"): N sender threads, each
/// on its own keep-alive loopback connection, POST the bodies of a file (one JSON body per line)
/// in turn and time each request from its first byte written to its response's last byte read.
/// Python's 32 threads (scripts/bench/listen_load.py) share one interpreter lock and two cores
/// with the server under test; this sender costs the server almost nothing.
struct PostBench: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "post", abstract: "POST every line of a file to a loopback server with N concurrent keep-alive senders.")

  @Option(help: "One request body per line.")
  var bodies: String
  @Option(help: "The server's loopback port.")
  var port: Int
  @Option(help: "Concurrent senders, each on its own connection.")
  var senders = 32
  @Option(help: "Also write each request's line number, start and latency (ms from the first request) to this CSV file, to see when the slow ones happen.")
  var trace: String?

  func run() throws {
    let text = try String(contentsOfFile: bodies, encoding: .utf8)
    let requests: [[UInt8]] = text.split(separator: "\n").map { body in
      Array("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
    }
    let shared = SharedWork(count: requests.count, tracing: trace != nil)
    let done = DispatchGroup()
    let start = Date()
    let origin = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<senders {
      done.enter()
      let thread = Thread {
        var sender = Sender(port: UInt16(port))
        while let i = shared.next() {
          let t0 = DispatchTime.now().uptimeNanoseconds
          let status = sender.send(requests[i])
          let ms = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
          shared.record(status == 200 ? ms : nil, request: i, startedAt: Double(t0 - origin) / 1e6)
        }
        sender.close()
        done.leave()
      }
      thread.stackSize = 1 << 20
      thread.start()
    }
    done.wait()
    let seconds = Date().timeIntervalSince(start)
    let (latencies, failures) = shared.results()
    if let trace {
      let rows = shared.trace().map { "\($0.request),\(String(format: "%.3f", $0.start)),\($0.ms.map { String(format: "%.3f", $0) } ?? "failed")" }
      let text = (["request,start_ms,latency_ms"] + rows).joined(separator: "\n") + "\n"
      // Private, as every file SubDash makes.
      guard FileManager.default.createFile(atPath: trace, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
        throw ValidationError("cannot write the trace to \(trace)")
      }
    }
    let sorted = latencies.sorted()
    func pct(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count) * p / 100).rounded(.up)) - 1)] }
    // One JSON line for the driving script.
    print("{\"seconds\": \(seconds), \"ok\": \(latencies.count), \"failed\": \(failures), \"p50\": \(pct(50)), \"p99\": \(pct(99)), \"max\": \(sorted.last ?? 0)}")
  }
}

/// The next request index, and the outcomes, behind one lock.
private final class SharedWork: @unchecked Sendable {
  private let lock = NSLock()
  private var index = 0
  private let count: Int
  private var latencies: [Double] = []
  private var failures = 0
  private let tracing: Bool
  private var rows: [(request: Int, start: Double, ms: Double?)] = []
  init(count: Int, tracing: Bool) {
    self.count = count
    self.tracing = tracing
    latencies.reserveCapacity(count)
    if tracing { rows.reserveCapacity(count) }
  }
  func next() -> Int? {
    lock.lock(); defer { lock.unlock() }
    guard index < count else { return nil }
    index += 1
    return index - 1
  }
  func record(_ ms: Double?, request: Int, startedAt: Double) {
    lock.lock(); defer { lock.unlock() }
    if let ms { latencies.append(ms) } else { failures += 1 }
    if tracing { rows.append((request, startedAt, ms)) }
  }
  func trace() -> [(request: Int, start: Double, ms: Double?)] {
    lock.lock(); defer { lock.unlock() }
    return rows.sorted { $0.start < $1.start }
  }
  func results() -> ([Double], Int) {
    lock.lock(); defer { lock.unlock() }
    return (latencies, failures)
  }
}

/// One keep-alive HTTP/1.1 connection: writes a request, reads the status line, the headers and
/// a Content-Length body. Reconnects when the server closed the connection.
private struct Sender {
  let port: UInt16
  var fd: Int32 = -1
  var buffer: [UInt8] = []

  init(port: UInt16) { self.port = port }

  mutating func connectIfNeeded() -> Bool {
    if fd >= 0 { return true }
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = port.bigEndian
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    if rc != 0 { close(); return false }
    buffer.removeAll(keepingCapacity: true)
    return true
  }

  mutating func close() {
    if fd >= 0 { Glibc.close(fd) }
    fd = -1
  }

  /// The response's status, or nil when the exchange failed (the connection is then closed).
  mutating func send(_ request: [UInt8]) -> Int? {
    guard connectIfNeeded() else { return nil }
    var sent = 0
    while sent < request.count {
      let n = request.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + sent, $0.count - sent) }
      if n <= 0 { close(); return nil }
      sent += n
    }
    // Headers, then the body by Content-Length.
    var headerEnd: Int?
    while headerEnd == nil {
      if let e = self.headerEnd() { headerEnd = e + 4; break }
      guard fill() else { close(); return nil }
    }
    let head = String(decoding: buffer[0..<headerEnd!], as: UTF8.self)
    let lines = head.split(separator: "\r\n")
    guard let statusLine = lines.first, statusLine.split(separator: " ").count >= 2, let status = Int(statusLine.split(separator: " ")[1]) else { close(); return nil }
    var length = 0
    var closeAfter = false
    for line in lines.dropFirst() {
      let parts = line.split(separator: ":", maxSplits: 1)
      guard parts.count == 2 else { continue }
      let name = parts[0].lowercased(), value = parts[1].trimmingCharacters(in: .whitespaces)
      if name == "content-length" { length = Int(value) ?? 0 }
      if name == "connection" && value.lowercased() == "close" { closeAfter = true }
    }
    while buffer.count < headerEnd! + length {
      guard fill() else { close(); return nil }
    }
    buffer.removeFirst(headerEnd! + length)
    if closeAfter { close() }
    return status
  }

  /// Where the header block ends (CR LF CR LF), if it has arrived.
  private func headerEnd() -> Int? {
    guard buffer.count >= 4 else { return nil }
    for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 { return i }
    return nil
  }

  private mutating func fill() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 16_384)
    let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
    guard n > 0 else { return false }
    buffer.append(contentsOf: chunk[0..<n])
    return true
  }
}
