import DashModel
import DashView
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The dashboard's refresh key: runs `subdash-fetch` for the file's recorded origin as a child
/// process, so the UI stays live while the App Store Server API answers. The child writes the file
/// through the usual locked path (the file watcher then shows the change); its last output line
/// ("… 2 new transactions, 1 new notifications" or the error) becomes the status line.
/// Credentials are the child's business: environment variables or the profile, never the file.
package final class BackgroundFetch {
  private let statePath: String
  private let binary: String?
  private var child: pid_t?
  private var outputFD: Int32 = -1

  /// `binary` nil: the installed subdash-fetch (Platform/ExecutablePath), looked for at each start.
  package init(statePath: String, binary: String? = nil) {
    self.statePath = statePath
    self.binary = binary
  }

  package var isRunning: Bool { child != nil }

  /// The command line for `origin`: the same customer, environment and server as the first fetch.
  package static func arguments(for origin: FetchOrigin, statePath: String) -> [String] {
    var args = [origin.transactionId, "-o", statePath, "--environment", origin.environment.lowercased(), "--quiet", "--refresh"]
    if let url = origin.baseURL { args += ["--base-url", url] }
    for root in origin.roots { args += ["--root", root] }
    return args
  }

  /// Starts a fetch; returns an action at once only when it cannot start.
  package func start(_ origin: FetchOrigin) -> UIAction? {
    if child != nil { return .actionFailed("refresh: a fetch is already running") }
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return .actionFailed("refresh: cannot create a pipe: \(String(cString: strerror(errno)))") }
    // Close-on-exec on both ends: dup2 gives the child clean copies on 1 and 2, and no other
    // process the dashboard starts later inherits the pipe.
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    let binary: String
    switch self.binary.map({ .success($0) }) ?? ExecutablePath.locate("subdash-fetch") {
    case .success(let path): binary = path
    case .failure(let missing): close(fds[0]); close(fds[1]); return .actionFailed("refresh: \(missing)")
    }
    let argv = [binary] + Self.arguments(for: origin, statePath: statePath)
    let spawned = ChildProcess.spawn(argv, redirects: [0: nil, 1: fds[1], 2: fds[1]])
    close(fds[1])
    switch spawned {
    case .failure(let failure):
      close(fds[0])
      return .actionFailed("refresh: cannot run \(binary): \(failure.text)")
    case .success(let pid):
      child = pid
    }
    outputFD = fds[0]
    _ = fcntl(outputFD, F_SETFL, fcntl(outputFD, F_GETFL) | O_NONBLOCK)
    return nil
  }

  private var output: [UInt8] = []

  /// Non-blocking: nil while the child runs (its output is drained so it never blocks on a full
  /// pipe), else the outcome for the status line.
  package func poll() -> UIAction? {
    guard let pid = child else { return nil }
    drain()
    var status: Int32 = 0
    let r = waitpid(pid, &status, WNOHANG)
    if r == 0 { return nil }
    drain()
    close(outputFD)
    outputFD = -1
    child = nil
    let text = String(decoding: output, as: UTF8.self)
    output = []
    let last = text.split(separator: "\n").last.map(String.init) ?? ""
    let exited = r == pid && (status & 0x7f) == 0
    let code = (status >> 8) & 0xff
    if exited && code == 0 { return .actionSucceeded("refreshed: " + Self.short(last)) }
    return .actionFailed(last.isEmpty ? "refresh failed (status \(code))" : Self.short(last))
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

  /// "subdash fetch: " is noise on the dashboard's own status line.
  package static func short(_ line: String) -> String {
    line.hasPrefix("subdash fetch: ") ? String(line.dropFirst("subdash fetch: ".count)) : line
  }

  deinit {
    // Quitting while a fetch runs: the child finishes (or fails) on its own and its write is
    // atomic either way; only the pipe end is ours to close.
    if outputFD >= 0 { close(outputFD) }
  }
}
