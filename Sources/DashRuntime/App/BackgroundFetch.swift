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
  private let child = HelperChild()

  /// `binary` nil: the installed subdash-fetch (Platform/ExecutablePath), looked for at each start.
  package init(statePath: String, binary: String? = nil) {
    self.statePath = statePath
    self.binary = binary
  }

  package var isRunning: Bool { child.isRunning }

  /// The command line for `origin`: the same customer, environment and server as the first fetch.
  package static func arguments(for origin: FetchOrigin, statePath: String) -> [String] {
    var args = [origin.transactionId, "-o", statePath, "--environment", origin.environment.lowercased(), "--quiet", "--refresh"]
    if let url = origin.baseURL { args += ["--base-url", url] }
    for root in origin.roots { args += ["--root", root] }
    return args
  }

  /// Starts a fetch; returns an action at once only when it cannot start.
  package func start(_ origin: FetchOrigin) -> UIAction? {
    if child.isRunning { return .actionFailed("refresh: a fetch is already running") }
    return child.start("subdash-fetch", at: binary, arguments: Self.arguments(for: origin, statePath: statePath), what: "refresh").map { .actionFailed($0) }
  }

  /// Non-blocking: nil while the child runs, else the outcome for the status line.
  package func poll() -> UIAction? {
    guard let ended = child.poll() else { return nil }
    let last = ended.output.split(separator: "\n").last.map(String.init) ?? ""
    if ended.exitedCleanly && ended.exitCode == 0 { return .actionSucceeded("refreshed: " + Self.short(last)) }
    return .actionFailed(last.isEmpty ? "refresh failed (status \(ended.exitCode))" : Self.short(last))
  }

  /// The error prefix "subdash: " is noise on the dashboard's own status line.
  package static func short(_ line: String) -> String {
    line.hasPrefix("subdash: ") ? String(line.dropFirst("subdash: ".count)) : line
  }
}
