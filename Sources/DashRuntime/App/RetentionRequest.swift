import DashModel
import DashView
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Going to cancel with a realtime URL configured: runs `subdash-retention FILE` as a child, so the
/// dashboard never holds an HTTP client and stays live while the developer's server answers. The
/// child keeps Apple's time limit itself; the dashboard still gives up after `maxWaitMs` (a child
/// that hangs is killed) and says so. Its last JSON line becomes `.retentionShown`.
package final class RetentionRequest {
  package static let maxWaitMs: Int64 = 10_000
  private let statePath: String
  private let binary: String?
  private var child: pid_t?
  private var outputFD: Int32 = -1
  private var output: [UInt8] = []
  private var startedAt = timespec()

  /// `binary` nil: the installed subdash-retention, looked for at each start.
  package init(statePath: String, binary: String? = nil) {
    self.statePath = statePath
    self.binary = binary
  }

  package var isRunning: Bool { child != nil }

  /// Starts asking; returns an action at once only when it cannot start.
  package func start() -> UIAction? {
    if child != nil { return .actionFailed("retention: the App Store is already asking the developer's server") }
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return .actionFailed("retention: cannot create a pipe: \(String(cString: strerror(errno)))") }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    let path: String
    switch binary.map({ .success($0) }) ?? ExecutablePath.locate("subdash-retention") {
    case .success(let p): path = p
    case .failure(let missing): close(fds[0]); close(fds[1]); return .actionFailed("retention: \(missing)")
    }
    let spawned = ChildProcess.spawn([path, statePath], redirects: [0: nil, 1: fds[1], 2: fds[1]])
    close(fds[1])
    switch spawned {
    case .failure(let failure):
      close(fds[0])
      return .actionFailed("retention: cannot run \(path): \(failure.text)")
    case .success(let pid):
      child = pid
    }
    outputFD = fds[0]
    _ = fcntl(outputFD, F_SETFL, fcntl(outputFD, F_GETFL) | O_NONBLOCK)
    clock_gettime(CLOCK_MONOTONIC, &startedAt)
    return nil
  }

  /// Non-blocking: nil while the child runs, else what the customer is shown (or why nothing is).
  package func poll() -> UIAction? {
    guard let pid = child else { return nil }
    drain()
    var status: Int32 = 0
    var r = waitpid(pid, &status, WNOHANG)
    var overdue = false
    if r == 0 {
      guard elapsedMs() > Self.maxWaitMs else { return nil }
      kill(pid, SIGKILL)
      r = waitpid(pid, &status, 0)
      overdue = true
    }
    drain()
    close(outputFD)
    outputFD = -1
    child = nil
    let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    output = []
    if overdue { return .actionFailed("retention: subdash-retention gave no answer in \(Self.maxWaitMs / 1000) s and was stopped") }
    if let line = lines.last(where: { $0.hasPrefix("{") }), let outcome = RetentionOutcome(jsonLine: line) { return .retentionShown(outcome) }
    return .actionFailed("retention: " + (lines.last ?? "subdash-retention ended without an answer"))
  }

  private func elapsedMs() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec - startedAt.tv_sec) * 1000 + Int64(now.tv_nsec - startedAt.tv_nsec) / 1_000_000
  }

  private func drain() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while outputFD >= 0 {
      let n = read(outputFD, &buffer, buffer.count)
      if n <= 0 { return }
      output += buffer[0..<n]
      if output.count > 64 * 1024 { output.removeFirst(output.count - 64 * 1024) }
    }
  }

  deinit {
    if outputFD >= 0 { close(outputFD) }
  }
}
