import Foundation

/// Waits for something a test can observe (a count, a job taken) instead of sleeping a fixed
/// time or polling for ever: checks `condition` every `pause` until it holds or `limit` has
/// passed. True when it held.
func eventually(within limit: Duration, every pause: Duration = .milliseconds(1), _ condition: () async throws -> Bool) async rethrows -> Bool {
  let deadline = ContinuousClock.now + limit
  while true {
    if try await condition() { return true }
    if ContinuousClock.now >= deadline { return false }
    try? await Task.sleep(for: pause)
  }
}

/// The first line a child process writes to `pipe`, or nil when it ends or stays silent for `limit`.
func firstLine(of pipe: Pipe, within limit: Duration) -> String? {
  let fd = pipe.fileHandleForReading.fileDescriptor
  let deadline = ContinuousClock.now + limit
  var line: [UInt8] = []
  while true {
    let left = deadline - ContinuousClock.now
    guard left > .zero else { return nil }
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let ms = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
    guard poll(&p, 1, Int32(clamping: max(1, ms))) > 0 else { continue }
    var byte: UInt8 = 0
    guard read(fd, &byte, 1) == 1 else { return nil }  // the process ended
    if byte == 0x0A { return String(decoding: line, as: UTF8.self) }
    line.append(byte)
  }
}

/// Something a test counts from any task or thread (requests that reached the store, a lock taken),
/// for `eventually` to wait on.
final class Tally: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  func add() {
    lock.lock()
    value += 1
    lock.unlock()
  }
  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
}
