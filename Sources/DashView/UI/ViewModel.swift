import DashModel
import CoreValues
import RetentionMessaging

/// Everything the dashboard shows, as one value the runtime rebuilds after each reload or tick:
/// the loaded state, its lifecycle report at `clock.now`, the event log and the session's flags.
/// `render` and `reduce` read it and never change it.
public struct ViewModel: Sendable {
  public var state: SubscriptionState
  public var report: LifecycleReport
  /// App Store Server Notifications, newest first by `signedDate`: the loaded page of the log.
  public var notifications: [NotificationRecord]
  /// Where that page is in the whole log (newest-first position of `notifications[0]`) and how
  /// many events the log holds: the dashboard loads a page at a time (`EventsPage`).
  public var eventsPage = EventsPage()
  /// The state file's name as the user typed it, for the header and error banners.
  public var fileName: String
  public var clock: DashClock
  public var options: DisplayOptions
  /// Simulation keys act only on test data: false for Production files.
  public var simulationKeysAllowed: Bool
  public var advisor: ActionAdvisor
  /// The file's simulated rate is fast enough (over 60×) that clocks show seconds.
  public var clockShowsSeconds = false
  /// The simulator's rate and armed settings (header, `?`); nil on Production or bad settings.
  public var simulation: SimulationSummary?
  /// A `subdash simulate` stamped the file within `SimulatorHeartbeat.staleAfter` of the wall.
  public var simulatorRunning: SimulatorHeartbeat?
  /// The customer's summary and timeline from the whole history; nil where the caller did not
  /// read the history (then no summary or timeline is drawn).
  public var story: CustomerStory?
  /// The Retention Messaging configuration beside the file (`RetentionSetup`), or why it does not
  /// read; nil for neither when the caller did not look.
  public var retention: RetentionSetup?
  public var retentionProblem: String?

  /// - Parameters:
  ///   - notifications: newest first, as `StateFile.recentNotifications` returns them. Records are
  ///     re-sorted by `signedDate`; records with the same date keep this order, so two changes made
  ///     at one simulated instant (a downgrade, then an upgrade) still list the later one first.
  ///   - simulationKeysAllowed: defaults to "the file is not Production data".
  public init(
    state: SubscriptionState, report: LifecycleReport, notifications: [NotificationRecord], fileName: String,
    clock: DashClock, options: DisplayOptions = DisplayOptions(), simulationKeysAllowed: Bool? = nil,
    advisor: ActionAdvisor
  ) {
    self.state = state
    self.report = report
    self.notifications = ViewModel.newestFirst(notifications)
    self.fileName = fileName
    self.clock = clock
    self.options = options
    self.simulationKeysAllowed = simulationKeysAllowed ?? ((report.environment ?? state.subscriber.environment) != .production)
    self.advisor = advisor
  }

  /// Derives the report at `clock.now` and plugs in the real actions: what the runtime calls after
  /// every load, reload and tick.
  /// - Parameters:
  ///   - notifications: the log to show, newest first (inline plus journal: `StateFile.recentNotifications`).
  ///   - timing: the file's renewal rate, so previews date things as the simulator will.
  ///   - history: where transactions of the history are read by id (the file's journal).
  public static func derived(
    state: SubscriptionState, notifications: [NotificationRecord], fileName: String, clock: DashClock,
    options: DisplayOptions = DisplayOptions(), timing: any RenewalTiming = TimeRate.realTime,
    history: TransactionLookup? = nil
  ) -> ViewModel {
    let report = Lifecycle.derive(state, at: clock.now)
    var vm = ViewModel(state: state, report: report, notifications: notifications, fileName: fileName, clock: clock,
                       options: options,
                       advisor: .live(state, report: report, at: clock.now, timing: timing, history: history))
    vm.clockShowsSeconds = timing.schedule.clockShowsSeconds
    if vm.simulationKeysAllowed { vm.simulation = Simulator.summary(state) }
    vm.simulatorRunning = SimulatorHeartbeat.read(state).flatMap { $0.isAlive(at: clock.wall) ? $0 : nil }
    return vm
  }

  /// Sorts by `signedDate` descending; undated records go last, ties keep the given (newest-first) order.
  public static func newestFirst(_ records: [NotificationRecord]) -> [NotificationRecord] {
    records.enumerated().sorted { a, b in
      switch (a.element.signedDate, b.element.signedDate) {
      case let (x?, y?) where x != y: return x > y
      case (.some, nil): return true
      case (nil, .some): return false
      default: return a.offset < b.offset
      }
    }.map(\.element)
  }

  /// The event at newest-first position `position` of the whole log, when it is in the loaded page.
  public func event(at position: Int) -> NotificationRecord? {
    let k = position - eventsPage.offset
    return notifications.indices.contains(k) ? notifications[k] : nil
  }

  /// Events in the whole log: the loaded page's count when nothing says more.
  public var eventsTotal: Int { max(eventsPage.total ?? 0, eventsPage.offset + notifications.count) }

  public var environment: AppStoreEnvironment? { report.environment ?? state.subscriber.environment }
  public var isProduction: Bool { environment == .production }
  /// The instant the model reasons about: `--now`, else simulated time when the file keeps a
  /// clock, else the wall.
  public var now: Instant { clock.now }
}

/// The two clocks a developer watches: the simulator's (when the file has one) and the wall;
/// or the moment support staff asked for with `--now`, which wins over both.
public struct DashClock: Equatable, Sendable {
  public var simulated: Instant?
  public var wall: Instant
  /// `--now`: the file is viewed at this fixed moment whatever its own clock says.
  public var viewingAt: Instant?
  public init(simulated: Instant? = nil, wall: Instant, viewingAt: Instant? = nil) {
    self.simulated = simulated
    self.wall = wall
    self.viewingAt = viewingAt
  }
  public var now: Instant { viewingAt ?? simulated ?? wall }
}

/// Session flags from the command line.
public struct DisplayOptions: Equatable, Sendable {
  /// Why no key changes the file (nil: keys may change it). The refusals say this reason, so a
  /// session nobody started with `--read-only` never claims it was.
  public var readOnlyReason: ReadOnlyReason?
  /// No key changes the file; setting it without a reason means `--read-only`.
  public var readOnly: Bool {
    get { readOnlyReason != nil }
    set { readOnlyReason = newValue ? (readOnlyReason ?? .asked) : nil }
  }
  /// `--ascii`: no box drawing or other non-ASCII glyphs (old terminals, serial consoles).
  public var ascii: Bool
  /// False with `--no-color` or NO_COLOR; roles still carry meaning through glyphs and words.
  public var color: Bool
  /// Opened from the subscriber list: Esc (like q) goes back to the list, on the same row.
  public var openedFromList: Bool
  public init(readOnly: Bool = false, readOnlyReason: ReadOnlyReason? = nil, ascii: Bool = false, color: Bool = true, openedFromList: Bool = false) {
    self.readOnlyReason = readOnlyReason ?? (readOnly ? .asked : nil)
    self.ascii = ascii
    self.color = color
    self.openedFromList = openedFromList
  }
}

/// Which part of the event log `ViewModel.notifications` is.
public struct EventsPage: Equatable, Sendable {
  /// Newest-first position of the first loaded event.
  public var offset: Int
  /// Events in the whole log, when known (nil: the loaded ones are all there is).
  public var total: Int?
  public init(offset: Int = 0, total: Int? = nil) {
    self.offset = offset
    self.total = total
  }
}
