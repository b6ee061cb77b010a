import DashModel
import CoreValues

/// Everything the dashboard remembers between frames that is not in the file, in one value the
/// reducer owns: the mode, the status line and its log, the event list's selection and scroll,
/// the highlights of fields a reload changed, the last reload's file error, the screen size and
/// the scroll extents of the last frame drawn.
public struct UIState: Equatable, Sendable {
  public var mode: Mode
  /// The bottom line; every message set here is also kept in `messages`.
  public var status: StatusLine? {
    didSet { if let status, status != oldValue { messages.record(status) } }
  }
  /// The last status messages, newest first, so one cut at the screen's width can be read whole
  /// (under `?`).
  public private(set) var messages = MessageLog()
  /// Position of the selected event in the whole log (0 = newest); `ViewModel.event(at:)`.
  public var eventSelection: Int
  /// Position of the first event shown in the events panel; paging moves it by a page.
  public var eventsTop = 0
  /// The last `/` search, repeated by `n` (older) and `m` (newer).
  public var eventSearch: EventSearch?
  /// The last reload's error (`state.json:3:9: …`) while the last good state stays on screen.
  public var fileError: String?
  /// Fields a reload changed, each until a wall-clock instant.
  public var highlights = ChangeHighlights()
  /// The terminal's size as last reported, nil before the runtime has said.
  public var screen: ScreenSize?
  /// What the last frame could show of the scrollable parts; pages are this long.
  public var extents = ScrollExtents()
  /// The timeline (`T`): opened on a narrow screen, focused for its cursor.
  public var timeline = TimelineFocus()
  /// The transactions view's (`t`) selection, kept while a refund is confirmed from it.
  public var transactions = TransactionsCursor()

  /// How long a changed field stays highlighted after a reload.
  public static let highlightSpan = Span.seconds(4)

  public init(mode: Mode = .browsing, status: StatusLine? = nil, eventSelection: Int = 0) {
    self.mode = mode
    self.status = status
    self.eventSelection = eventSelection
    if let status { messages.record(status) }
  }

  /// True while the screen shows "Terminal too small" instead of the dashboard.
  public var screenTooSmall: Bool {
    guard let screen else { return false }
    return screen.width < minimumScreen.width || screen.height < minimumScreen.height
  }
}

public struct ScreenSize: Equatable, Sendable {
  public var width: Int, height: Int
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }
}

/// How much of each scrollable part the last frame showed. `render` reports it on the frame and
/// the runtime hands it to `reduce` (`.laidOut`), so the reducer pages by what was on screen
/// without asking the renderer.
public struct ScrollExtents: Equatable, Sendable {
  /// Events the events panel shows at once (0 when the panel is hidden).
  public var eventRows: Int
  /// Lines of the open scrollable overlay (help, event detail) and how many of them fit.
  public var overlayLines: Int
  public var overlayRows: Int
  public init(eventRows: Int = 0, overlayLines: Int = 0, overlayRows: Int = 0) {
    self.eventRows = eventRows
    self.overlayLines = overlayLines
    self.overlayRows = overlayRows
  }
  /// The last first-line an overlay can scroll to.
  var lastOverlayOffset: Int { max(0, overlayLines - overlayRows) }
}

/// The last status messages, newest first, repeats folded into one.
public struct MessageLog: Equatable, Sendable {
  public static let capacity = 20
  public private(set) var entries: [StatusLine] = []
  mutating func record(_ line: StatusLine) {
    if entries.first == line { return }
    entries.insert(line, at: 0)
    if entries.count > Self.capacity { entries.removeLast() }
  }
}

/// What the keyboard is talking to. One enum instead of flags, so "typing a code while a
/// confirmation is open" cannot be represented.
public enum Mode: Equatable, Sendable {
  case browsing
  /// The cancel page's retention message (Retention Messaging API): keep, take the offer or cancel.
  case retention(RetentionSheet)
  /// The key list; `offset` is the first line shown when it is taller than the screen.
  case help(offset: Int)
  case confirming(PendingAction)
  case typingCode(LineEditor)
  case picking(Picker)
  /// The selected notification (`UIState.eventSelection`) with every field; `offset` scrolls it.
  case eventDetail(offset: Int)
  /// `/`: typing what to search the events for.
  case searchingEvents(LineEditor)
  /// `t`: every transaction, newest first (`UIState.transactions` holds the selection).
  case transactions
  /// A clock step that would apply more than `LongStep.confirmAbove` events, waiting for y/n.
  case confirmingStep(PendingStep)
}

/// A long simulation step waiting for y/n, with its size counted before anything is written.
public struct PendingStep: Equatable, Sendable {
  public var command: SimCommand
  public var size: LongStep.Size
  public init(command: SimCommand, size: LongStep.Size) {
    self.command = command
    self.size = size
  }
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
