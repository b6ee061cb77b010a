import DashModel

/// The timeline's place on screen and its cursor. From `autoWidth` columns it is always drawn;
/// narrower screens open it with `T`. Focused, ←/→ move the cursor through the periods and the
/// chosen period's transaction and events are shown under the lane.
public struct TimelineFocus: Equatable, Sendable {
  /// From this width the timeline is on screen without a key: a wide terminal's spare rows.
  public static let autoWidth = 160

  /// Opened with `T` on a screen narrower than `autoWidth`.
  public var opened = false
  public var focused = false
  /// Index into the story's `timeline.periods`; nil until the timeline is first focused.
  public var cursor: Int?

  public init() {}

  public func isShown(width: Int) -> Bool { width >= Self.autoWidth || opened }
}

/// The timeline's keys. `T` opens and focuses it (and leaves it); while it has the focus, ←/→
/// and Home/End move the cursor and Esc leaves. Every other key keeps its meaning.
enum TimelineKeys {
  static func toggle(_ state: inout UIState, _ vm: ViewModel) {
    if state.timeline.focused {
      leave(&state)
      return
    }
    guard let periods = vm.story?.timeline.periods, !periods.isEmpty else {
      state.status = .error("timeline: no periods yet (the subscriber never subscribed)")
      return
    }
    if (state.screen?.width ?? 0) < TimelineFocus.autoWidth { state.timeline.opened = true }
    state.timeline.focused = true
    // The period the subscriber is in now, else the latest.
    let now = vm.story?.timeline.index(at: vm.now) ?? periods.count - 1
    state.timeline.cursor = clamp(state.timeline.cursor ?? now, periods.count)
    state.status = StatusLine("timeline: ←/→ choose a period, Home/End first/last, T or Esc leave")
  }

  /// True when the key was the timeline's.
  static func handle(_ key: Key, _ state: inout UIState, _ vm: ViewModel) -> Bool {
    guard state.timeline.focused else { return false }
    let count = vm.story?.timeline.periods.count ?? 0
    let at = clamp(state.timeline.cursor ?? 0, count)
    switch key {
    case .left: state.timeline.cursor = clamp(at - 1, count)
    case .right: state.timeline.cursor = clamp(at + 1, count)
    case .home: state.timeline.cursor = 0
    case .end: state.timeline.cursor = max(0, count - 1)
    case .escape: leave(&state)
    default: return false
    }
    return true
  }

  private static func leave(_ state: inout UIState) {
    state.timeline.focused = false
    state.timeline.opened = false
    state.status = nil
  }

  static func clamp(_ i: Int, _ count: Int) -> Int { min(max(0, i), max(0, count - 1)) }
}
