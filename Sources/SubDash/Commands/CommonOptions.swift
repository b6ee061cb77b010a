import ArgumentParser
import DashModel
import DashRuntime
import FoundationEssentials
import CoreValues

/// Options shared by the dashboard and `show`.
struct ViewingOptions: ParsableArguments {
  @Option(name: .long, help: ArgumentHelp("View the file at another moment (ISO 8601 like 2026-12-01T10:00:00Z, a date like 2026-12-01, or ms since 1970).", valueName: "DATE"))
  var now: String?

  @Option(name: .long, help: ArgumentHelp("Access during billing retry outside grace: none (Apple's default reading) or limited. Overrides the file's policy.", valueName: "none|limited"))
  var retryAccess: String?

  func nowOverride() throws -> Instant? {
    guard let now else { return nil }
    do { return try Format.parseDate(now) } catch { throw ValidationError("--now: \(error.description)") }
  }

  func retryAccessOverride() throws -> AccessPolicy.RetryAccess? {
    guard let retryAccess else { return nil }
    guard let v = AccessPolicy.RetryAccess(rawValue: retryAccess) else {
      throw ValidationError("--retry-access must be none or limited, not \(retryAccess)")
    }
    return v
  }

  /// Applies overrides to a loaded state (never written back).
  func apply(to state: inout SubscriptionState) throws {
    if let r = try retryAccessOverride() { state.document.policy.billingRetryAccess = r }
  }
}

/// Prints a one-line error to stderr and returns the exit code for bad input (2), so scripts
/// can tell "the file is bad" from "the command line is bad" (ArgumentParser's 64).
func badInput(_ message: String) -> ExitCode {
  LineOut.stderr("subdash: " + message)
  return ExitCode(2)
}

/// One line for an error from the system or a library: its `LocalizedError` text when it has one
/// (Foundation's file errors do), else its description. FoundationEssentials has no
/// `localizedDescription`, and this binary links only FoundationEssentials.
func oneLine(_ error: any Error) -> String {
  (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
}
