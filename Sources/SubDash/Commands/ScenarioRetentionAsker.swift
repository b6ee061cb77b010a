import DashModel
import DashRuntime
import DashView
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberStorage
import RetentionMessaging

/// A scenario's `cancel-page` step: with a realtime URL configured beside the file, the App
/// Store's request goes out through `subdash-retention` (the helper the dashboard runs, so this
/// binary carries no HTTP client), waited for within `RetentionRequest.maxWaitMs`; without one,
/// the default message is read here.
enum ScenarioRetentionAsker {
  static func ask(statePath: String) -> Result<RetentionOutcome, RetentionSetupError> {
    let setup: RetentionSetup
    do { setup = try RetentionSetup.load(besideStateFile: statePath) } catch { return .failure(error) }
    if setup.realtimeURL == nil {
      guard let state = try? StateFile.load(path: statePath), let customer = RetentionCustomer(state) else {
        return .failure(RetentionSetupError(description: "\(statePath): no subscription to cancel"))
      }
      return .success(RealtimeAnswer.fallback(setup, customer, problem: nil))
    }
    let request = RetentionRequest(statePath: statePath)
    if let failed = request.start() { return .failure(problem(failed)) }
    while true {
      if let done = request.poll() {
        if case .retentionShown(let outcome) = done { return .success(outcome) }
        return .failure(problem(done))
      }
      usleep(5_000)
    }
  }

  private static func problem(_ action: UIAction) -> RetentionSetupError {
    if case .actionFailed(let message) = action { return RetentionSetupError(description: message) }
    return RetentionSetupError(description: "retention: subdash-retention gave no answer")
  }
}
