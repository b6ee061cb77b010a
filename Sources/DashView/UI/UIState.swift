import DashModel

/// Everything the dashboard remembers between frames that is not in the file: one mode, the
/// status line and the event list's selection.
public struct UIState: Equatable, Sendable {
  public var mode: Mode
  public var status: StatusLine?
  /// Index of the selected row in `ViewModel.notifications` (0 = newest).
  public var eventSelection: Int

  public init(mode: Mode = .browsing, status: StatusLine? = nil, eventSelection: Int = 0) {
    self.mode = mode
    self.status = status
    self.eventSelection = eventSelection
  }
}

/// What the keyboard is talking to. One enum instead of flags, so "typing a code while a
/// confirmation is open" cannot be represented.
public enum Mode: Equatable, Sendable {
  case browsing
  /// The key list; `offset` is the first line shown when it is taller than the screen.
  case help(offset: Int)
  case confirming(PendingAction)
  case typingCode(LineEditor)
  case picking(Picker)
  /// The selected notification (`UIState.eventSelection`) with every field; `offset` scrolls it.
  case eventDetail(offset: Int)
}

/// A mutating action waiting for y/n, with the model's preview of what it will do.
public struct PendingAction: Equatable, Sendable {
  public var action: PlanAction
  public var preview: ActionPreview
  public init(action: PlanAction, preview: ActionPreview) {
    self.action = action
    self.preview = preview
  }
}

/// A list of targets to choose from (several upgrade levels, win-back offers).
public struct Picker: Equatable, Sendable {
  public var kind: PickerKind
  public var items: [PickerItem]
  public var selection: Int
  public init(kind: PickerKind, items: [PickerItem], selection: Int = 0) {
    self.kind = kind
    self.items = items
    self.selection = selection
  }

  mutating func move(by delta: Int) {
    guard !items.isEmpty else { selection = 0; return }
    selection = min(max(0, selection + delta), items.count - 1)
  }
}

/// The bottom line: the result of the last action, or why a key did nothing.
public struct StatusLine: Equatable, Sendable {
  public var message: String
  public var isError: Bool
  public init(_ message: String, isError: Bool = false) {
    self.message = message
    self.isError = isError
  }
  static func error(_ message: String) -> StatusLine { StatusLine(message, isError: true) }
}
