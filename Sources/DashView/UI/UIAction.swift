import DashModel
import CoreValues
import RetentionMessaging

/// What happened, as the runtime reports it to `reduce`.
public enum UIAction: Equatable, Sendable {
  case keyPressed(Key)
  /// The file was read again successfully; the new `ViewModel` is the reducer's context and
  /// `changed` the fields that differ from the model before it (`ChangeDetector.diff`).
  case fileReloaded(changed: Set<FieldID>)
  /// The file could not be read; the last good state stays on screen.
  case fileFailed(String)
  /// The clock moved (wall time, or simulated time in the context).
  case ticked(Instant)
  /// An effect the runtime performed finished; the message is shown on the status line.
  case actionSucceeded(String)
  case actionFailed(String)
  /// What the App Store showed the customer going to cancel (`.askRetention` answered).
  case retentionShown(RetentionOutcome)
  case resized(width: Int, height: Int)
  /// A frame was drawn; what it showed of the scrollable parts (`Frame.extents`).
  case laidOut(ScrollExtents)
  /// `.searchEvents` found a match at this newest-first position of the whole log, or none.
  case eventFound(at: Int, EventSearch)
  case eventNotFound(EventSearch)
  /// A long step saved another part (`LongStep.eventsPerSave` events) and goes on.
  case stepProgressed(StepProgress)
  /// `.copyToClipboard` was written to the terminal; where it went (inside tmux, maybe no further).
  case copyRouted(ClipboardRoute)
}

/// How far a long simulation step has got, for the status line while it runs.
public struct StepProgress: Equatable, Sendable {
  /// Notifications written so far by this step.
  public var notifications: Int
  public var clock: Instant
  public var target: Instant
  public init(notifications: Int, clock: Instant, target: Instant) {
    self.notifications = notifications
    self.clock = clock
    self.target = target
  }
}

/// What the runtime must do next. `reduce` never does I/O itself.
public enum UIEffect: Equatable, Sendable {
  /// Apply a plan action to the file (through `StateFile.update`) and report back.
  case perform(PlanAction)
  /// Ask the simulation engine to take a step on the file and report back.
  case simulate(SimCommand)
  /// Read the file again (after our own write, at once rather than waiting for the watcher) and
  /// report `.fileReloaded` or `.fileFailed`.
  case reload
  /// Start `subdash fetch` again in the background; it reports back with actionSucceeded/Failed.
  case refetch
  /// Ask the developer's realtime URL for a retention message (`subdash-retention`, in the
  /// background); it reports back with `.retentionShown` or `.actionFailed`.
  case askRetention
  /// Load the events at these newest-first positions of the whole log (and a margin around them)
  /// into `ViewModel.notifications`: the events panel pages through a history of any length.
  case loadEvents(Range<Int>)
  /// Find the next event after position `from` (older when `forward`) that `search` matches, and
  /// report `.eventFound` or `.eventNotFound`.
  case searchEvents(EventSearch, from: Int, forward: Bool)
  /// Put this text on the terminal's clipboard (OSC 52). Already sanitized: no control characters.
  case copyToClipboard(String)
  case quit
}
