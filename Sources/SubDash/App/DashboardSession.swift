import DashModel
import DashView

/// The dashboard's state outside the pure UI: the last good file contents and what was derived
/// from them. It loads, derives and performs effects; `reduce` and `render` stay pure.
final class DashboardSession {
  let path: String
  let displayName: String
  let options: DisplayOptions
  let nowOverride: Instant?
  let retryAccess: AccessPolicy.RetryAccess?

  private(set) var state: SubscriptionState
  private(set) var notifications: [NotificationRecord] = []
  private(set) var fileError: String?
  private(set) var highlights = ChangeHighlights()
  private var lastModel: ViewModel?
  /// Bumped whenever `state`, `notifications`, `fileError` or `highlights` change, so `model(wall:)`
  /// derives once per change and wall-clock instant even when asked twice (reload, then the loop).
  private var generation = 0
  private var lastModelKey: (generation: Int, wall: Instant)?

  /// How long a changed field stays highlighted after an external change.
  static let highlightSpan = Span.seconds(4)
  static let eventsShown = 50

  init(path: String, displayName: String, options: DisplayOptions, nowOverride: Instant?, retryAccess: AccessPolicy.RetryAccess?) throws(StateFileError) {
    self.path = path
    self.displayName = displayName
    self.options = options
    self.nowOverride = nowOverride
    self.retryAccess = retryAccess
    state = try StateFile.load(path: path)
    notifications = (try? StateFile.recentNotifications(state, statePath: path, limit: Self.eventsShown)) ?? []
    state = state.forViewing()  // actions re-read the file, so the session never needs the history
    applyOverrides()
  }

  /// An imported input opened with `subdash FILE`: held only in memory, never reloaded or written.
  private var inMemory = false

  init(importedState: SubscriptionState, path: String, displayName: String, options: DisplayOptions, nowOverride: Instant?, retryAccess: AccessPolicy.RetryAccess?) {
    self.path = path
    self.displayName = displayName
    self.options = options
    self.nowOverride = nowOverride
    self.retryAccess = retryAccess
    state = importedState
    notifications = Array(importedState.subscriber.notifications.reversed().prefix(Self.eventsShown))
    state = state.forViewing()
    inMemory = true
    applyOverrides()
  }

  private func applyOverrides() {
    if let retryAccess { state.document.policy.billingRetryAccess = retryAccess }
  }

  /// Re-reads the file. On failure the last good state stays and the error is shown in a banner.
  /// Returns the error message, or nil when the reload succeeded.
  @discardableResult
  func reload(wall: Instant) -> String? {
    if inMemory { return nil }
    do {
      let loaded = try StateFile.load(path: path)
      notifications = try StateFile.recentNotifications(loaded, statePath: path, limit: Self.eventsShown)
      state = loaded.forViewing()
      applyOverrides()
      fileError = nil
      generation += 1
      if let old = lastModel {
        let changed = ChangeDetector.diff(old: old, new: model(wall: wall))
        highlights.mark(changed, until: wall + Self.highlightSpan)
        lastModel?.highlights = highlights  // the only difference; no need to derive again
      }
      return nil
    } catch {
      fileError = error.description
      generation += 1
      return error.description
    }
  }

  /// The moment the model reasons about: `--now`, else the file's simulated clock, else the wall.
  func viewingTime(wall: Instant) -> (now: Instant, simulated: Bool) {
    WallClock.viewingTime(for: state, override: nowOverride, wall: wall)
  }

  func model(wall: Instant) -> ViewModel {
    if let vm = lastModel, let key = lastModelKey, key.generation == generation, key.wall == wall { return vm }
    let (now, simulated) = viewingTime(wall: wall)
    let vm = ViewModel.derived(
      state: state, notifications: notifications, fileName: displayName,
      clock: DashClock(simulated: simulated ? now : nil, wall: wall, viewingAt: nowOverride), options: options,
      timing: Self.timing(of: state), fileError: fileError, highlights: highlights)
    lastModel = vm
    lastModelKey = (generation, wall)
    return vm
  }

  /// The file's renewal rate. Previews and applied actions both use it, so "new period ends …" in a
  /// confirmation is what the write then does, at any simulated time rate.
  static func timing(of state: SubscriptionState) -> any RenewalTiming {
    (try? Simulator.rules(state).rate) ?? TimeRate.realTime
  }

  /// Applies a plan action to the latest on-disk state under the lock. Returns the status message.
  func perform(_ action: PlanAction, wall: Instant) -> EffectOutcome {
    guard !options.readOnly else { return .failed(ActionError.readOnly.message) }
    return write(wall: wall) { current, now in Actions.apply(action, to: current, at: now, timing: Self.timing(of: current)) }
  }

  /// Runs one simulation step on the latest on-disk state. Refused on Production data.
  func simulate(_ command: SimCommand, wall: Instant) -> EffectOutcome {
    guard !options.readOnly else { return .failed(ActionError.readOnly.message) }
    return write(wall: wall) { current, now in
      if current.subscriber.environment == .production {
        return .failure(.productionData("Simulation"))
      }
      return Simulator.apply(command, to: current, at: now)
    }
  }

  private func write(wall: Instant, _ body: (SubscriptionState, Instant) -> Result<Change, ActionError>) -> EffectOutcome {
    let override = nowOverride
    do throws(StateFile.UpdateFailure<ActionError>) {
      let saved = try StateFile.update(path: path, refusing: ActionError.self) { (current) throws(ActionError) -> Change in
        let now = WallClock.viewingTime(for: current, override: override, wall: wall).now
        return try body(current, now).get()
      }
      return .succeeded(saved.change.message)
    } catch {
      // Model refusals say what was refused; storage failures name the file.
      switch error {
      case .refused(let refusal): return .failed(refusal.message)
      case .file(let e): return .failed(e.description)
      }
    }
  }

  /// Milliseconds until the screen would change by itself (a countdown, the wall clock's minute,
  /// a highlight fading), or nil when nothing on screen moves: then the loop sleeps until a key
  /// or a file event, with no wake-ups at all. A simulated clock or `--now` fixes the moment the
  /// screen is derived at, so only highlights move; a live view moves with the wall clock.
  func msUntilScreenChanges(wall: Instant) -> Int32? {
    var deadlines: [Span] = []
    if let fade = highlights.nextExpiry(after: wall) { deadlines.append(fade - wall) }
    let (now, simulated) = viewingTime(wall: wall)
    if !simulated && nowOverride == nil {
      // Countdowns show seconds under an hour; otherwise the header's "now" shows minutes, and
      // every rule of the report (grace, retry, win-back windows) is re-derived at least that often.
      let soonSeconds = nextCountdownTarget(now: now).map { $0 - now < .hours(1) } ?? false
      let step: Double = soonSeconds ? 1000 : 60_000
      deadlines.append(Span(ms: step - now.ms.truncatingRemainder(dividingBy: step) + 1))
    }
    guard let soonest = deadlines.min() else { return nil }
    return Int32(max(1, min(soonest.ms, 3_600_000)))
  }

  private func nextCountdownTarget(now: Instant) -> Instant? {
    // The report just drawn; deriving again here would double the work of every wake-up.
    guard let r = lastModel?.report else { return nil }
    var targets: [Instant] = []
    switch r.renewal {
    case .renews(let d, _, _, _), .expiresAutoRenewOff(let d), .switches(let d, _), .awaitsPriceConsent(let d, _): targets.append(d)
    case .none: break
    }
    if let g = r.grace { targets.append(g.expiresDate) }
    if let b = r.billingRetry { targets.append(b.retryUntil) }
    if let a = r.askToBuy { targets.append(a.lapseDate) }
    return targets.filter { $0 > now }.min()
  }
}

/// The result of performing an effect, as the status line will show it.
enum EffectOutcome {
  case succeeded(String)
  case failed(String)
}
