import DashModel
import DashView
import CoreValues
import SubscriberStorage

/// The dashboard's file side: the last good file contents and what was derived from them. It
/// loads, derives and performs effects; what the screen remembers (highlights, the file error,
/// dialogs) is `UIState`, changed only by `reduce`.
package final class DashboardSession {
  package let path: String
  package let displayName: String
  package let options: DisplayOptions
  package let nowOverride: Instant?
  package let retryAccess: AccessPolicy.RetryAccess?
  /// Set when the file mirrors a database row: keys are written to the row, under its lock.
  package var rowWriter: (any LockedRowWriting)?

  package private(set) var state: SubscriptionState
  package private(set) var notifications: [NotificationRecord] = []
  /// Which page of the whole log `notifications` is (the newest page until a key asks for another).
  package private(set) var eventsPage = EventsPage()
  /// The whole log, indexed the first time a key needs more than the newest page (paging, `G`,
  /// `/`): opening never reads more of the journal than the newest page.
  private var eventLog: EventLog?
  private var lastModel: ViewModel?
  /// The whole history, compact, for the summary and timeline; kept up to date by reading only
  /// what the journal gained at each reload (`CustomerHistory.refreshed`), and its now-free
  /// part derived once per file version.
  private var history: CustomerHistory?
  /// A long history being read on another thread (`StoryLoader`), until `model` adopts it.
  private let storyLoader = StoryLoader()
  private var storyRequest: Int?
  private var storyInputs: (generation: Int, prepared: CustomerStory.Prepared)?
  /// The story last derived, and for which version and instant: a file on a simulated clock (or
  /// opened with --now) is viewed at the same instant key after key, and deriving a 100,000-
  /// transaction story again for each key was 50 ms of every keypress.
  private var lastStory: (generation: Int, now: Instant, story: CustomerStory)?
  /// How many times a story was derived (tests check that an unchanged one is reused).
  package private(set) var storyDerivations = 0
  /// Bumped whenever `state` or `notifications` change, so `model(wall:)`
  /// derives once per change and wall-clock instant even when asked twice (reload, then the loop).
  private var generation = 0
  private var lastModelKey: (generation: Int, wall: Instant)?
  private let retentionSetup = RetentionSetupCache()

  package static let eventsShown = 50
  /// How often the loop looks for a history read on another thread.
  static let storyPollMs: Int32 = 100

  /// A file this user cannot write opens read-only, the reason on its status line and in each
  /// refused key (`WriteAccess`).
  package init(path: String, displayName: String, options: DisplayOptions, nowOverride: Instant?, retryAccess: AccessPolicy.RetryAccess?) throws(StateFileError) {
    self.path = path
    self.displayName = displayName
    var options = options
    if options.readOnlyReason == nil, let refusal = WriteAccess.refusal(forStateFile: path) {
      options.readOnlyReason = .notWritable(refusal)
    }
    self.options = options
    self.nowOverride = nowOverride
    self.retryAccess = retryAccess
    state = try Self.load(path)
    notifications = (try? StateFile.recentNotifications(state, statePath: path, limit: Self.eventsShown)) ?? []
    readHistory(state)
    state = state.forViewing()  // actions re-read the file, so the session never needs the history
    eventsPage = EventsPage(offset: 0, total: Self.eventCount(state))
    applyOverrides()
  }

  /// The file as the session reads it: the inline history's entries keep only the fields the
  /// story reads (`InlineHistory.viewingProjection`), since nothing else here reads them and
  /// `forViewing()` drops them once the story has. Read, not mapped: a file cut short under a
  /// mapping ends the process, which `show` may do and a dashboard must not.
  private static func load(_ path: String) throws(StateFileError) -> SubscriptionState {
    try StateFile.load(path: path, projection: InlineHistory.viewingProjection)
  }

  /// The log's length as the document says (journal count plus inline log), without reading it.
  private static func eventCount(_ state: SubscriptionState) -> Int {
    (state.document.journal?.summary.notificationCount ?? 0) + state.document.subscriber.notifications.count
  }

  /// An imported input opened with `subdash FILE`: held only in memory, never reloaded or written.
  private var inMemory = false
  /// Messages for the status line and its log when the dashboard opens (an in-memory import's
  /// warnings), so nothing the import skipped goes unsaid.
  package private(set) var openingMessages: [String] = []

  package init(importedState: SubscriptionState, warnings: [String] = [], path: String, displayName: String, options: DisplayOptions, nowOverride: Instant?, retryAccess: AccessPolicy.RetryAccess?) {
    // The header names the file already; the warning keeps its JSON path.
    openingMessages = warnings.map { "import warning: " + ($0.hasPrefix(path + ": ") ? String($0.dropFirst(path.count + 2)) : $0) }
    self.path = path
    self.displayName = displayName
    self.options = options
    self.nowOverride = nowOverride
    self.retryAccess = retryAccess
    state = importedState
    notifications = Array(importedState.subscriber.notifications.reversed().prefix(Self.eventsShown))
    history = CustomerHistory.load(importedState, statePath: path)
    state = state.forViewing()
    eventsPage = EventsPage(offset: 0, total: importedState.subscriber.notifications.count)
    inMemory = true
    applyOverrides()
  }

  private func applyOverrides() {
    if let retryAccess { state.document.policy.billingRetryAccess = retryAccess }
  }

  /// Re-reads the file. On failure the last good state stays (the reducer shows the error in a
  /// banner). Returns what happened as the reducer's action: the fields that changed, or the error.
  /// An imported input held in memory is never read again: nothing changed.
  package func reload(wall: Instant) -> UIAction {
    if inMemory { return .fileReloaded(changed: []) }
    do {
      let loaded = try Self.load(path)
      let old = lastModel ?? model(wall: wall)
      if var log = eventLog {
        // Paging has begun: the index grows by what was appended and the same page is read again.
        // (Released first, so appending to the index does not copy it; a failure rebuilds it.)
        eventLog = nil
        try log.update(loaded, statePath: path)
        let start = min(eventsPage.offset, max(0, log.count - Self.eventsShown))
        notifications = try log.page(start..<(start + Self.eventsShown))
        eventsPage = EventsPage(offset: start, total: log.count)
        eventLog = log
      } else {
        notifications = try StateFile.recentNotifications(loaded, statePath: path, limit: Self.eventsShown)
        eventsPage = EventsPage(offset: 0, total: Self.eventCount(loaded))
      }
      if let h = history { history = CustomerHistory.refreshed(h, for: loaded, statePath: path) } else { readHistory(loaded) }
      state = loaded.forViewing()
      applyOverrides()
      generation += 1
      return .fileReloaded(changed: ChangeDetector.diff(old: old, new: model(wall: wall)))
    } catch {
      return .fileFailed(error.description)
    }
  }

  /// Loads the page of events holding the newest-first positions `wanted` (a page of
  /// `eventsShown` around them, more when the panel is taller). Returns the error, if any.
  package func loadEvents(_ wanted: Range<Int>) -> String? {
    do throws(StateFileError) {
      let log = try updatedLog()
      let size = max(Self.eventsShown, wanted.count)
      let start = max(0, min(wanted.lowerBound - (size - wanted.count) / 2, log.count - size))
      notifications = try log.page(start..<(start + size))
      eventsPage = EventsPage(offset: start, total: log.count)
      generation += 1
      return nil
    } catch {
      return error.description
    }
  }

  /// The next event after `from` (older when `forward`) that `search` matches, as the reducer's action.
  package func searchEvents(_ search: EventSearch, from: Int, forward: Bool) -> UIAction {
    do throws(StateFileError) {
      let log = try updatedLog()
      let hit = try log.search(from: from, forward: forward, prefilter: search.prefilter, matches: search.matches)
      return hit.map { .eventFound(at: $0, search) } ?? .eventNotFound(search)
    } catch {
      return .actionFailed(error.description)
    }
  }

  /// The log as of the state last loaded: built on first use, then extended by what was appended.
  private func updatedLog() throws(StateFileError) -> EventLog {
    var log = eventLog ?? EventLog()
    eventLog = nil  // unshared, so extending the index appends in place
    try log.update(state, statePath: path)
    eventLog = log
    return log
  }

  /// The moment the model reasons about: `--now`, else the file's simulated clock, else the wall.
  package func viewingTime(wall: Instant) -> (now: Instant, simulated: Bool) {
    WallClock.viewingTime(for: state, override: nowOverride, wall: wall)
  }

  package func model(wall: Instant) -> ViewModel {
    if let request = storyRequest, let h = storyLoader.take(request) {
      history = h
      storyRequest = nil
      generation += 1
    }
    if let vm = lastModel, let key = lastModelKey, key.generation == generation, key.wall == wall { return vm }
    let (now, simulated) = viewingTime(wall: wall)
    var vm = ViewModel.derived(
      state: state, notifications: notifications, fileName: displayName,
      clock: DashClock(simulated: simulated ? now : nil, wall: wall, viewingAt: nowOverride), options: options,
      timing: Self.timing(of: state), history: inMemory ? nil : .file(path))
    vm.eventsPage = eventsPage
    vm.story = story(now: now)
    (vm.retention, vm.retentionProblem) = retentionSetup.current(besideStateFile: path, wall: wall)
    lastModel = vm
    lastModelKey = (generation, wall)
    return vm
  }

  /// Reads a short history now, a long one on another thread (`model` adopts it when ready).
  private func readHistory(_ full: SubscriptionState) {
    if StoryLoader.isShort(full) {
      history = CustomerHistory.load(full, statePath: path)
      storyRequest = nil
    } else {
      storyRequest = storyLoader.start(full, statePath: path)
    }
  }

  /// The summary and timeline at `now`: the history folded once per file version, the rest
  /// (periods up to `now`, the streak) at each derivation, linear in the history's length.
  private func story(now: Instant) -> CustomerStory? {
    guard let history else { return nil }
    let prepared: CustomerStory.Prepared
    if let cached = storyInputs, cached.generation == generation {
      prepared = cached.prepared
    } else {
      prepared = CustomerStory.prepare(history, state: state)
      storyInputs = (generation, prepared)
    }
    if let last = lastStory, last.generation == generation, last.now == now { return last.story }
    let story = CustomerStory.derive(prepared, state: state, now: now)
    storyDerivations += 1
    lastStory = (generation, now, story)
    return story
  }

  /// The file's renewal rate. Previews and applied actions both use it, so "new period ends …" in a
  /// confirmation is what the write then does, at any simulated time rate.
  package static func timing(of state: SubscriptionState) -> any RenewalTiming {
    Simulator.timing(state)
  }

  /// Applies a plan action to the latest on-disk state under the lock. Returns the status message.
  package func perform(_ action: PlanAction, wall: Instant) -> EffectOutcome {
    guard !options.readOnly else { return .failed(ActionError.readOnly.message) }
    // A transaction the action names (a refund from the transactions view) is read from the
    // file's journal, under the write's lock.
    let journal = TransactionLookup.file(path)
    return write(wall: wall) { current, now in
      let history = TransactionLookup { id in TransactionLookup.inState(current).find(id) ?? journal.find(id) }
      return Actions.apply(action, to: current, at: now, timing: Self.timing(of: current), history: history)
    }
  }

  /// Runs one simulation step on the latest on-disk state. Refused on Production data.
  /// Advancing the clock is saved `LongStep.eventsPerSave` events at a time; `progress` hears of
  /// each part but the last, so a long step (a day at 86,400×) is not seconds of silence.
  package func simulate(_ command: SimCommand, wall: Instant, progress: (StepProgress) -> Void = { _ in }) -> EffectOutcome {
    guard !options.readOnly else { return .failed(ActionError.readOnly.message) }
    if case .advance(let span) = command { return advance(by: span, wall: wall, progress: progress) }
    return write(wall: wall) { current, now in
      if current.subscriber.environment == .production {
        return .failure(.productionData("Simulation"))
      }
      return Simulator.apply(command, to: current, at: now)
    }
  }

  /// `+`: each part is its own locked, atomic save towards the target the first part set.
  private func advance(by span: Span, wall: Instant, progress: (StepProgress) -> Void) -> EffectOutcome {
    var target: Instant?
    var notifications = 0
    var parts = 0
    while true {
      var reached = true
      var clock: Instant?
      let outcome = write(wall: wall) { current, now in
        if current.subscriber.environment == .production { return .failure(.productionData("Simulation")) }
        return Result { () throws(ActionError) in
          let goal: Instant
          if let target { goal = target } else { goal = try Simulator.target(ofAdvancing: span, current, at: now) }
          target = goal
          let part = try Simulator.advancePart(current, to: goal, at: now)
          reached = part.reached
          clock = try? Simulator.clock(part.change.state)
          notifications += part.change.notifications.count
          return part.change
        }
      }
      parts += 1
      guard case .succeeded = outcome, !reached, let target, let clock else {
        if case .succeeded = outcome, parts > 1, let target {
          return .succeeded("Advanced to \(Format.date(target)): \(counted(notifications, "notification")) in \(parts) saves")
        }
        return outcome
      }
      progress(StepProgress(notifications: notifications, clock: clock, target: target))
    }
  }

  /// Through the row writer when the file is a database row's mirror, else straight to the file.
  private func write(wall: Instant, _ body: (SubscriptionState, Instant) -> Result<Change, ActionError>) -> EffectOutcome {
    guard let rowWriter else {
      let (outcome, saved) = write(path, wall: wall, body)
      // A purchaser's extension (`e`) moves the linked family members in the file's directory,
      // as `subdash extend` does.
      guard let (store, name, change) = saved, FamilyExtension.extended(change) != nil else { return outcome }
      let members = FamilyExtension.extendMembers(after: change, in: store, skipping: name, wall: wall)
      return .succeeded(change.message + Self.familySaid(members, after: change, in: "this directory"))
    }
    // A row's members are rows, not files beside its scratch copy: the mirror extends them in the
    // database once the purchaser's row is stored (`commit family`).
    let written = rowWriter.write(fileName: PathName.fileName(of: path)) { scratch in
      let (outcome, saved) = write(scratch, wall: wall, body)
      guard case .succeeded = outcome else { return (commit: false, followFamily: false, value: (outcome, nil as Change?)) }
      let extended = saved.map { FamilyExtension.extended($0.change) != nil } ?? false
      return (commit: true, followFamily: extended, value: (outcome, saved?.change))
    }
    switch written {
    case .success(let (saved, family)):
      guard let change = saved.1, FamilyExtension.extended(change) != nil else { return saved.0 }
      return .succeeded(change.message + Self.familySaid(family, after: change, in: "the database"))
    case .failure(let error): return .failed(error.message)
    }
  }

  /// The locked write of the file at `path`; with what it saved, when it saved a change.
  private func write(_ path: String, wall: Instant, _ body: (SubscriptionState, Instant) -> Result<Change, ActionError>)
    -> (EffectOutcome, (store: DirectorySubscriberStore, name: String, change: Change)?) {
    let override = nowOverride
    let (store, name) = DirectorySubscriberStore.holding(path)
    let result = store.update(existing: name, wait: .bounded) { (current) throws(ActionError) -> SubscriberEdit in
      let now = WallClock.viewingTime(for: current, override: override, wall: wall).now
      return .save(try body(current, now).get())
    }
    // Model refusals say what was refused; storage failures name the file.
    switch result {
    case .applied(let change), .created(let change): return (.succeeded(change.message), (store, name, change))
    case .unchanged: return (.succeeded("nothing changed"), nil)
    case .refused(let refusal): return (.failed(refusal.message), nil)
    case .busy(let e), .failed(let e): return (.failed(e.description), nil)
    }
  }

  /// The status line's word on the family after an extension: how many members followed (and why
  /// any did not), or, for a family-shareable product, that none is linked in `place`.
  static func familySaid(_ members: [FamilyExtension.MemberOutcome], after change: Change, in place: String) -> String {
    guard let extended = FamilyExtension.extended(change) else { return "" }
    let followed = members.filter { $0.message != nil }.count
    let notFollowed = members.filter { $0.message == nil }
    if members.isEmpty {
      let product = change.state.subscriber.latestTransaction?.productId
      guard change.state.catalog.product(product)?.familyShareable == true else { return "" }
      return " No family member of \(extended.purchaser) found in \(place) (a member's file names it as familyPurchaser)."
    }
    var said = " \(counted(followed, "family member")) followed"
    if !notFollowed.isEmpty {
      said += "; not: " + notFollowed.map { "\($0.name) (\($0.skipped ?? "?"))" }.joined(separator: ", ")
    }
    return said + "."
  }

  /// Milliseconds until the screen would change by itself (`ScreenTimer`), or nil when nothing
  /// on screen moves: then the loop sleeps until a key or a file event, with no wake-ups at all.
  package func msUntilScreenChanges(wall: Instant, _ ui: UIState) -> Int32? {
    // The model last derived (the frame on screen); deriving again would double every wake-up.
    let screen = ScreenTimer.msUntilChange(lastModel ?? model(wall: wall), ui, wall: wall)
    // While a long history is read elsewhere, look again soon to show it when it is ready.
    guard storyRequest != nil else { return screen }
    return min(screen ?? Self.storyPollMs, Self.storyPollMs)
  }
}

/// The result of performing an effect, as the status line will show it.
package enum EffectOutcome {
  case succeeded(String)
  case failed(String)
}
