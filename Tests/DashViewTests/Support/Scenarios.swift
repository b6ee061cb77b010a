import Foundation
@testable import DashModel
@testable import DashView
@testable import CoreValues
@testable import SubscriberStorage
@testable import SimulationRuns

/// One subscriber situation the dashboard must show: a state loaded from Examples/ through the
/// real loader, its report from `Lifecycle.derive` at the file's own simulated clock, and the
/// real `Actions` behind the advisor.
struct Scenario {
  var name: String
  var state: SubscriptionState
  var now: Instant
  var wall: Instant
  var fileError: String? = nil

  var report: LifecycleReport { Lifecycle.derive(state, at: now) }
  var clock: DashClock { DashClock(simulated: now, wall: wall) }

  /// The view model the runtime would build: `ViewModel.derived` at the scenario's clocks.
  func viewModel(options: DisplayOptions = DisplayOptions(), clock: DashClock? = nil) -> ViewModel {
    // Newest first, as the runtime passes them (`StateFile.recentNotifications`).
    .derived(state: state, notifications: state.subscriber.notifications.reversed(), fileName: "\(name).json",
             clock: clock ?? self.clock, options: options)
  }

  /// The UI state the runtime would hold for this scenario: its file error, if any, and `ui`'s
  /// mode and highlights.
  func ui(_ ui: UIState = UIState(), highlights: ChangeHighlights? = nil) -> UIState {
    var ui = ui
    if let fileError { ui.fileError = fileError }
    if let highlights { ui.highlights = highlights }
    return ui
  }

  /// The same subscriber after `change` (to the state) and `elapsed` later on both clocks.
  func with(name: String? = nil, elapsed: Span = .zero, _ change: (inout SubscriptionState) -> Void = { _ in }) -> Scenario {
    var copy = self
    change(&copy.state)
    copy.now = now + elapsed
    copy.wall = wall + elapsed
    copy.name = name ?? self.name
    return copy
  }
}

enum Scenarios {
  static let examples = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples")

  /// Loads `Examples/<stem>.json`; the wall clock runs 7 minutes ahead of the simulated one.
  static func example(_ stem: String) -> Scenario {
    let path = examples.appendingPathComponent("\(stem).json").path
    let state: SubscriptionState
    do { state = try StateFile.load(path: path) } catch { fatalError("\(stem).json does not load: \(error)") }
    guard case .number(let text)? = state.document.simulation?["now"], let ms = Double(text) else {
      fatalError("\(stem).json has no simulation.now")
    }
    let now = Instant(ms: ms)
    return Scenario(name: stem, state: state, now: now, wall: now + .minutes(7))
  }

  static let exampleNames = [
    "active", "auto-renew-off", "pending-downgrade", "pending-crossgrade", "price-increase", "grace-period",
    "expired-voluntary", "expired-billing", "expired-price-increase", "refunded", "family-shared", "ask-to-buy",
    "offer-in-effect", "new-subscriber", "contradictory",
  ]

  /// Every lifecycle state the dashboard is snapshotted in.
  static var allNames: [String] { exampleNames + ["billing-retry-none", "billing-retry-limited", "file-error"] }

  static func named(_ name: String) -> Scenario {
    switch name {
    case "billing-retry-none": return billingRetryNone
    case "billing-retry-limited": return billingRetryLimited
    case "file-error": return fileError
    default: return example(name)
    }
  }

  static var active: Scenario { example("active") }
  static var grace: Scenario { example("grace-period") }
  static var expiredWithWinBack: Scenario { example("expired-voluntary") }

  static var billingRetryNone: Scenario {
    example("billing-retry").with(name: "billing-retry-none") { $0.document.policy.billingRetryAccess = .none }
  }

  static var billingRetryLimited: Scenario {
    example("billing-retry").with(name: "billing-retry-limited") { $0.document.policy.billingRetryAccess = .limited }
  }

  /// The active subscriber while the file on disk is broken: the last good state stays on screen.
  static var fileError: Scenario {
    var s = active
    s.name = "file-error"
    let broken = Array("{\n  \"format\": \"subdash-state/1\",\n  \"subscriber\": {,\n}".utf8)
    do {
      _ = try StateFile.decode(broken, fileName: "active.json") { (n) throws(StateFileError) in throw StateFileError(file: n, message: "unused") }
    } catch {
      s.fileError = error.description
    }
    return s
  }

  /// The active subscriber, but the file says Production.
  static var production: Scenario {
    active.with(name: "production") { s in
      s.subscriber.latestTransaction?.environment = .production
      s.subscriber.renewalInfo?.environment = .production
    }
  }
}
