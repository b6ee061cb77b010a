import DashModel
import DashView
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RetentionMessaging

/// Going to cancel with a realtime URL configured: runs `subdash-retention FILE` as a child, so the
/// dashboard never holds an HTTP client and stays live while the developer's server answers. The
/// child keeps Apple's time limit itself; the dashboard still gives up after `maxWaitMs` (a child
/// that hangs is killed) and says so. Its last JSON line becomes `.retentionShown`.
package final class RetentionRequest {
  package static let maxWaitMs: Int64 = 10_000
  private let statePath: String
  private let binary: String?
  private let child = HelperChild()

  /// `binary` nil: the installed subdash-retention, looked for at each start.
  package init(statePath: String, binary: String? = nil) {
    self.statePath = statePath
    self.binary = binary
  }

  package var isRunning: Bool { child.isRunning }

  /// Starts asking; returns an action at once only when it cannot start.
  package func start() -> UIAction? {
    if child.isRunning { return .actionFailed("retention: the App Store is already asking the developer's server") }
    return child.start("subdash-retention", at: binary, arguments: [statePath], what: "retention").map { .actionFailed($0) }
  }

  /// Non-blocking: nil while the child runs, else what the customer is shown (or why nothing is).
  package func poll() -> UIAction? {
    guard let ended = child.poll(killAfter: .milliseconds(Self.maxWaitMs)) else { return nil }
    let lines = ended.output.split(separator: "\n").map(String.init)
    if ended.overdue { return .actionFailed("retention: subdash-retention gave no answer in \(Self.maxWaitMs / 1000) s and was stopped") }
    if let line = lines.last(where: { $0.hasPrefix("{") }), let outcome = RetentionOutcome(jsonLine: line) { return .retentionShown(outcome) }
    return .actionFailed("retention: " + (lines.last ?? "subdash-retention ended without an answer"))
  }
}
