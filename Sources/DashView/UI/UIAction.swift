import DashModel

/// What happened, as the runtime reports it to `reduce`.
public enum UIAction: Equatable, Sendable {
  case keyPressed(Key)
  /// The file was read again successfully; the new `ViewModel` is the reducer's context.
  case fileReloaded
  /// The file could not be read; the last good state stays on screen.
  case fileFailed(String)
  /// The clock moved (wall time, or simulated time in the context).
  case ticked(Instant)
  /// An effect the runtime performed finished; the message is shown on the status line.
  case actionSucceeded(String)
  case actionFailed(String)
  case resized(width: Int, height: Int)
}

/// What the runtime must do next. `reduce` never does I/O itself.
public enum UIEffect: Equatable, Sendable {
  /// Apply a plan action to the file (through `StateFile.update`) and report back.
  case perform(PlanAction)
  /// Ask the simulation engine to take a step on the file and report back.
  case simulate(SimCommand)
  /// Start `subdash fetch` again in the background; it reports back with actionSucceeded/Failed.
  case refetch
  case quit
}
