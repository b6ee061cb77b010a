import DashModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberStorage

/// One helper executable the dashboard runs in the background (`subdash-fetch`, `subdash-retention`):
/// its stdout and stderr on one non-blocking pipe, drained at every poll so the child never blocks
/// on a full pipe, and reaped without ever blocking the input loop. Only the newest 64 KiB of
/// output is kept: callers read the last line.
final class HelperChild {
  /// How a finished child ended, with what it printed.
  struct Ended {
    let exitedCleanly: Bool
    let exitCode: Int32
    /// It ran past the caller's limit and was killed.
    let overdue: Bool
    let output: String
  }

  private var pid: pid_t?
  private var outputFD: Int32 = -1
  private var output: [UInt8] = []
  private var startedAt = ContinuousClock.now

  var isRunning: Bool { pid != nil }

  /// Starts `helper` (a path given, else the installed one) with `arguments`; the error text, prefixed
  /// with `what` ("refresh", "retention"), when it cannot start.
  func start(_ helper: String, at binary: String?, arguments: [String], what: String) -> String? {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return "\(what): cannot create a pipe: \(String(cString: strerror(errno)))" }
    // Close-on-exec on both ends: dup2 gives the child clean copies on 1 and 2, and no other
    // process the dashboard starts later inherits the pipe.
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    let path: String
    switch binary.map({ .success($0) }) ?? ExecutablePath.locate(helper) {
    case .success(let p): path = p
    case .failure(let missing): close(fds[0]); close(fds[1]); return "\(what): \(missing)"
    }
    let spawned = ChildProcess.spawn([path] + arguments, redirects: [0: nil, 1: fds[1], 2: fds[1]])
    close(fds[1])
    switch spawned {
    case .failure(let failure):
      close(fds[0])
      return "\(what): cannot run \(path): \(failure.text)"
    case .success(let child):
      pid = child
    }
    outputFD = fds[0]
    _ = fcntl(outputFD, F_SETFL, fcntl(outputFD, F_GETFL) | O_NONBLOCK)
    startedAt = .now
    return nil
  }

  /// Non-blocking: nil while the child runs (and, with `limit`, is within it), else how it ended.
  /// Past `limit` the child is killed and reaped (SIGKILL cannot be ignored, so that wait is short).
  func poll(killAfter limit: Duration? = nil) -> Ended? {
    guard let child = pid else { return nil }
    drain()
    var status: Int32 = 0
    var r = waitpid(child, &status, WNOHANG)
    var overdue = false
    if r == 0 {
      guard let limit, ContinuousClock.now - startedAt > limit else { return nil }
      kill(child, SIGKILL)
      r = waitpid(child, &status, 0)
      overdue = true
    }
    drain()
    close(outputFD)
    outputFD = -1
    pid = nil
    let text = String(decoding: output, as: UTF8.self)
    output = []
    return Ended(exitedCleanly: r == child && (status & 0x7f) == 0, exitCode: (status >> 8) & 0xff, overdue: overdue, output: text)
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
    // Quitting while a helper runs: it finishes (or fails) on its own, and its writes are atomic
    // either way; only the pipe end is ours to close.
    if outputFD >= 0 { close(outputFD) }
  }
}
