import DashModel

/// The events panel over a log of any length: the selection and the panel's page are positions in
/// the whole log, and only a page of it is loaded (`ViewModel.eventsPage`). When a key moves them
/// off the loaded page, the reducer asks the runtime to load the one now needed (`.loadEvents`);
/// searching and copying are effects too, so the reducer never reads the journal itself.
enum EventPaging {
  /// `.loadEvents` for what the panel and the selection need, when it is not loaded.
  static func load(_ state: UIState, _ vm: ViewModel) -> [UIEffect] {
    let rows = max(1, state.extents.eventRows)
    let lower = min(state.eventsTop, state.eventSelection)
    let upper = max(state.eventsTop + rows, state.eventSelection + 1)
    let total = vm.eventsTotal
    guard total > 0, lower < upper else { return [] }
    let needed = lower.clamped(0, total)..<upper.clamped(0, total)
    let loaded = vm.eventsPage.offset..<(vm.eventsPage.offset + vm.notifications.count)
    if needed.isEmpty || (loaded.lowerBound <= needed.lowerBound && needed.upperBound <= loaded.upperBound) { return [] }
    return [.loadEvents(needed)]
  }

  static func handle(_ command: Command, _ state: inout UIState, _ vm: ViewModel) -> [UIEffect] {
    switch command {
    case .searchEvents:
      // Empty, as the list's `/` starts: the last search stays for `n`/`m` until Enter replaces it.
      state.mode = .searchingEvents(LineEditor())
      state.status = nil
    case .nextMatch, .previousMatch:
      guard let search = state.eventSearch else { return [] }
      let forward = command == .nextMatch
      state.status = StatusLine("searching \(forward ? "older" : "newer") events for \"\(search.text)\"…")
      return [.searchEvents(search, from: state.eventSelection, forward: forward)]
    case .copyEvent, .copyEventId:
      guard let event = vm.event(at: state.eventSelection) else {
        state.status = .error("no event selected")
        return []
      }
      let copy = command == .copyEvent ? Clipboard.event(event) : Clipboard.eventId(event)
      guard let copy else {
        state.status = .error("the selected event has no notificationUUID to copy")
        return []
      }
      state.status = StatusLine(copy.description)
      return [.copyToClipboard(copy.text)]
    default: break
    }
    return []
  }

  /// Typing after `/`: Enter searches from the selection towards older events (the selected one
  /// included); Esc cancels; an empty text clears the search.
  static func typeSearch(_ key: Key, _ editor: LineEditor, _ state: inout UIState, _ vm: ViewModel) -> [UIEffect] {
    var editor = editor
    switch key {
    case .escape:
      state.mode = .browsing
      state.status = StatusLine("search cancelled")
      return []
    case .enter:
      state.mode = .browsing
      let search = EventSearch(editor.text.trimmedSpaces)
      guard !search.isEmpty else {
        state.eventSearch = nil
        state.status = StatusLine("search cleared")
        return []
      }
      state.eventSearch = search
      state.status = StatusLine("searching the events for \"\(search.text)\"…")
      return [.searchEvents(search, from: state.eventSelection - 1, forward: true)]
    case .char(let c):
      if !editor.insert(c) { state.status = .error("only printable characters, at most \(LineEditor.maxLength)") }
    default: _ = editor.edit(key)
    }
    state.mode = .searchingEvents(editor)
    return []
  }

  static func found(_ position: Int, _ search: EventSearch, _ state: inout UIState, _ vm: ViewModel) -> [UIEffect] {
    state.eventSelection = position
    Browsing.keepSelectionVisible(&state, vm)
    state.status = StatusLine("\"\(search.text)\": event \(position + 1) of \(vm.eventsTotal) (n older match, m newer)")
    return load(state, vm)
  }
}

private extension Int {
  func clamped(_ low: Int, _ high: Int) -> Int { Swift.min(Swift.max(low, self), high) }
}
