import DashModel
import CoreValues

/// Applies one thing that happened to the UI state and returns what the runtime must do.
///
/// Keys are routed by mode first: while a code is being typed every printable key is text
/// (`q` is a letter there), and only the browsing mode knows the command keys.
public func reduce(_ state: inout UIState, _ action: UIAction, context vm: ViewModel) -> [UIEffect] {
  switch action {
  case .keyPressed(let key):
    // "Terminal too small" hides the dashboard and any dialog: a key must not act on what the
    // user cannot see (a hidden y/n would confirm unseen). Only q, which needs no screen, works.
    if state.screenTooSmall {
      if state.mode == .browsing, KeyMap.command(for: key) == .quit { return [.quit] }
      return []
    }
    switch state.mode {
    case .retention(let sheet): return RetentionKeys.handle(key, sheet, &state, vm)
    case .browsing: return Browsing.handle(key, &state, vm)
    case .help(let offset): Overlay.help(key, offset: offset, &state); return []
    case .confirming(let c): return Overlay.confirm(key, c, &state)
    case .typingCode(let editor): Overlay.typeCode(key, editor, &state, vm); return []
    case .picking(let picker): Overlay.pick(key, picker, &state, vm); return []
    case .eventDetail(let offset):
      Overlay.eventDetail(key, offset: offset, &state, vm)
      return EventPaging.load(state, vm)
    case .searchingEvents(let editor): return EventPaging.typeSearch(key, editor, &state, vm)
    case .transactions: return TransactionsKeys.handle(key, &state, vm)
    case .confirmingStep(let step): return Overlay.confirmStep(key, step, &state)
    }
  case .fileReloaded(let changed):
    state.highlights.mark(changed, until: vm.clock.wall + UIState.highlightSpan)
    if state.fileError != nil {
      // The error is gone: so is its message (a stale "✖ file:3:9: invalid JSON" would say otherwise).
      state.fileError = nil
      state.status = StatusLine("\(vm.fileName) reads again; its keys are back")
    }
    if changed.contains(.subscriber) {
      let id = vm.state.subscriber.originalTransactionId.map { "originalTransactionId \(Sanitizer.clean($0))" } ?? "no originalTransactionId"
      var message = "\(Sanitizer.clean(vm.fileName)) now holds another subscriber (\(id)): everything on screen is theirs"
      // A dialog opened for the previous customer must not be confirmed for this one.
      switch state.mode {
      case .confirming, .confirmingStep, .picking, .typingCode:
        state.mode = .browsing
        message += "; the open dialog was cancelled"
      default: break
      }
      state.status = .error(message)
    }
    // The file moved under an open dialog: previews and lists are recomputed so a
    // confirmation never shows a refund computed for an older state.
    Refresh.revalidate(&state, vm)
    return []
  case .ticked(let wall):
    state.highlights.prune(at: wall)
    Refresh.revalidate(&state, vm)
    return []
  case .fileFailed(let message):
    state.fileError = message
    switch state.mode {
    case .confirming, .confirmingStep, .picking, .typingCode:
      // Every dialog ends in a change to the file, which cannot be applied now.
      state.mode = .browsing
      state.status = .error("cancelled: the file became invalid (\(message))")
    default: break
    }
    return []
  case .actionSucceeded(let message):
    state.status = StatusLine(message)
    return [.reload]
  case .actionFailed(let message):
    state.status = .error(message)
    return []
  case .retentionShown(let outcome):
    return RetentionKeys.shown(outcome, &state, vm)
  case .resized(let width, let height):
    state.screen = ScreenSize(width: width, height: height)
    state.eventSelection = Browsing.clampedSelection(state.eventSelection, vm)
    return []
  case .laidOut(let extents):
    state.extents = extents
    Browsing.keepSelectionVisible(&state, vm)
    return EventPaging.load(state, vm)
  case .eventFound(let position, let search):
    return EventPaging.found(position, search, &state, vm)
  case .eventNotFound(let search):
    state.status = .error("no event matches \"\(search.text)\"")
    return []
  case .stepProgressed(let p):
    state.status = StatusLine(LongStepText.progress(p, seconds: vm.clockShowsSeconds))
    return []
  case .copyRouted(let route):
    // The key already said "copied …"; a tmux that drops the sequence makes that untrue.
    if let problem = route.problem { state.status = .error(problem) }
    return []
  }
}

/// Keys in the main view.
enum Browsing {
  /// A page is what the events panel showed last; one event when it was hidden.
  static func pageSize(_ state: UIState) -> Int { max(1, state.extents.eventRows) }

  static func handle(_ key: Key, _ state: inout UIState, _ vm: ViewModel) -> [UIEffect] {
    // From the list, Esc goes back as it does from every overlay; alone, Esc does nothing here.
    if TimelineKeys.handle(key, &state, vm) { return [] }
    if key == .escape, vm.options.openedFromList { return [.quit] }
    guard let command = KeyMap.command(for: key) else { return [] }
    if case .unavailable(let why) = Availability.of(command, in: vm, state) {
      state.status = .error(why)
      return []
    }
    // Going to cancel shows the retention message first, when the developer set one up.
    if command == .toggleAutoRenew, vm.state.subscriber.renewalInfo?.autoRenewOn == true { return RetentionKeys.start(&state, vm) }
    switch command {
    case .quit: return [.quit]
    case .help: state.mode = .help(offset: 0)
    case .upgrade: open(.upgrade, &state, vm)
    case .downgrade: open(.downgrade, &state, vm)
    case .crossgrade: open(.crossgrade, &state, vm)
    case .winBack: open(.winBack, &state, vm)
    case .buy: open(.buy, &state, vm)
    case .extendRenewal: open(.extend, &state, vm)
    case .promotionalOffer: open(.promotional, &state, vm)
    case .redeemCode:
      state.mode = .typingCode(LineEditor())
      state.status = nil
    case .toggleAutoRenew:
      // Inside a 12-month commitment the key follows the commitment's own auto-renew status.
      let isOn = CommitmentKeys.autoRenewIsOn(vm.state, at: vm.now)
      Overlay.askToConfirm(.setAutoRenew(!isOn), &state, vm)
    case .simulate(let sim):
      // A step of more than LongStep.confirmAbove events (a day at 86,400×) asks first.
      if let size = vm.advisor.stepSize(sim), size.isLong {
        state.mode = .confirmingStep(PendingStep(command: sim, size: size))
        state.status = nil
        return []
      }
      state.status = StatusLine("simulating: \(sim.name)…")
      return [.simulate(sim)]
    case .moveUp: move(by: -1, &state, vm)
    case .moveDown: move(by: 1, &state, vm)
    case .pageUp: page(-1, &state, vm)
    case .pageDown: page(1, &state, vm)
    case .first: move(by: -Int.max / 2, &state, vm)
    case .last: move(by: Int.max / 2, &state, vm)
    case .searchEvents, .nextMatch, .previousMatch, .copyEvent, .copyEventId:
      return EventPaging.handle(command, &state, vm)
    case .showEvent: state.mode = .eventDetail(offset: 0)
    case .refetch:
      state.status = StatusLine("fetching…")
      return [.refetch]
    case .timeline: TimelineKeys.toggle(&state, vm)
    case .transactions: TransactionsKeys.open(&state, vm)
    }
    // Moving may leave the loaded page of events: the runtime loads the one now on screen.
    return EventPaging.load(state, vm)
  }

  /// One target goes straight to its confirmation; several open a picker.
  private static func open(_ kind: PickerKind, _ state: inout UIState, _ vm: ViewModel) {
    let items = vm.advisor.targets(kind)
    if items.count == 1 {
      Overlay.askToConfirm(items[0].action, &state, vm)
    } else {
      state.mode = .picking(Picker(kind: kind, items: items))
      state.status = nil
    }
  }

  private static func move(by delta: Int, _ state: inout UIState, _ vm: ViewModel) {
    let target = state.eventSelection + delta
    state.eventSelection = clampedSelection(target, vm)
    keepSelectionVisible(&state, vm)
  }

  /// PgDn shows the next page whole (`1-3` → `4-6` → `7-9`), the selection moving with it, so
  /// no event is skipped; the last page ends at the oldest event.
  private static func page(_ direction: Int, _ state: inout UIState, _ vm: ViewModel) {
    let rows = pageSize(state)
    let lastTop = max(0, vm.eventsTotal - rows)
    state.eventsTop = min(max(0, state.eventsTop + direction * rows), lastTop)
    state.eventSelection = clampedSelection(state.eventSelection + direction * rows, vm)
    keepSelectionVisible(&state, vm)
  }

  /// Scrolls the least needed for the selection to be on the page.
  static func keepSelectionVisible(_ state: inout UIState, _ vm: ViewModel) {
    let rows = pageSize(state)
    state.eventSelection = clampedSelection(state.eventSelection, vm)
    if state.eventSelection < state.eventsTop { state.eventsTop = state.eventSelection }
    if state.eventSelection >= state.eventsTop + rows { state.eventsTop = state.eventSelection - rows + 1 }
    state.eventsTop = min(max(0, state.eventsTop), max(0, vm.eventsTotal - rows))
  }

  static func clampedSelection(_ index: Int, _ vm: ViewModel) -> Int {
    min(max(0, index), max(0, vm.eventsTotal - 1))
  }
}

/// Keys inside the help overlay, confirmation, code entry and picker.
enum Overlay {
  /// Scrolls by what the last frame showed (`extents`), never past the last line.
  static func help(_ key: Key, offset: Int, _ state: inout UIState) {
    let last = state.extents.lastOverlayOffset
    let page = max(1, state.extents.overlayRows)
    func scroll(_ delta: Int) { state.mode = .help(offset: min(max(0, offset + delta), last)) }
    switch key {
    case .escape, .char("?"), .char("q"), .enter: state.mode = .browsing
    case .down, .char("j"): scroll(1)
    case .up, .char("k"): scroll(-1)
    case .pageDown: scroll(page)
    case .pageUp: scroll(-page)
    default: break
    }
  }

  /// j/k step to the next older / newer event, as in the list behind; PgDn/PgUp scroll a long one.
  static func eventDetail(_ key: Key, offset: Int, _ state: inout UIState, _ vm: ViewModel) {
    let last = state.extents.lastOverlayOffset
    let page = max(1, state.extents.overlayRows)
    switch key {
    case .escape, .enter, .char("q"): state.mode = .browsing
    case .down, .char("j"):
      state.eventSelection = Browsing.clampedSelection(state.eventSelection + 1, vm)
      state.mode = .eventDetail(offset: 0)
    case .up, .char("k"):
      state.eventSelection = Browsing.clampedSelection(state.eventSelection - 1, vm)
      state.mode = .eventDetail(offset: 0)
    case .pageDown: state.mode = .eventDetail(offset: min(offset + page, last))
    case .pageUp: state.mode = .eventDetail(offset: max(0, offset - page))
    default: break
    }
  }

  static func confirm(_ key: Key, _ confirmation: PendingAction, _ state: inout UIState) -> [UIEffect] {
    switch key {
    case .char("y"), .char("Y"):
      // A refund chosen in the transactions view returns there, to show the transaction revoked.
      state.mode = confirmation.action.isRefund ? .transactions : .browsing
      state.status = StatusLine("applying: \(confirmation.preview.summary)")
      return [.perform(confirmation.action)]
    case .char("n"), .char("N"), .escape:
      state.mode = confirmation.action.isRefund ? .transactions : .browsing
      state.status = StatusLine("cancelled; nothing was changed")
      return []
    default:
      return []
    }
  }

  static func confirmStep(_ key: Key, _ step: PendingStep, _ state: inout UIState) -> [UIEffect] {
    switch key {
    case .char("y"), .char("Y"):
      state.mode = .browsing
      state.status = StatusLine("simulating: \(step.command.name), about \(counted(step.size.estimate, "event"))…")
      return [.simulate(step.command)]
    case .char("n"), .char("N"), .escape:
      state.mode = .browsing
      state.status = StatusLine("cancelled; nothing was changed")
      return []
    default:
      return []
    }
  }

  static func typeCode(_ key: Key, _ editor: LineEditor, _ state: inout UIState, _ vm: ViewModel) {
    var editor = editor
    switch key {
    case .escape:
      state.mode = .browsing
      state.status = StatusLine("code entry cancelled")
      return
    case .enter:
      let code = editor.text.trimmedSpaces
      guard !code.isEmpty else { state.status = .error(ActionError.emptyCode.message); return }
      askToConfirm(.redeemOfferCode(code), &state, vm, stayOnError: .typingCode(editor))
      return
    case .char(let c):
      if editor.insert(c) {
        state.status = nil
      } else if editor.scalars.count + c.unicodeScalars.count > LineEditor.maxLength {
        state.status = .error("a code is at most \(LineEditor.maxLength) characters")
      } else {
        state.status = .error("only printable characters can be typed in a code")
      }
    default: _ = editor.edit(key)
    }
    state.mode = .typingCode(editor)
  }

  static func pick(_ key: Key, _ picker: Picker, _ state: inout UIState, _ vm: ViewModel) {
    var picker = picker
    switch key {
    case .escape, .char("q"):
      state.mode = .browsing
      state.status = StatusLine("cancelled; nothing was changed")
      return
    case .down, .char("j"): picker.move(by: 1)
    case .up, .char("k"): picker.move(by: -1)
    case .home: picker.move(by: -picker.items.count)
    case .end: picker.move(by: picker.items.count)
    case .enter:
      guard picker.items.indices.contains(picker.selection) else { return }
      let action = picker.items[picker.selection].action
      // Days chosen: the reason next, once the model agrees the extension can be made.
      if picker.kind == .extend, case .extendRenewalDate(let days, _) = action {
        if case .failure(let error) = vm.advisor.preview(action) { state.mode = .picking(picker); state.status = .error(error.message); return }
        state.mode = .picking(Picker(kind: .extendReason, items: ExtendChoices.reasonItems(days: days)))
        state.status = nil
        return
      }
      askToConfirm(action, &state, vm, stayOnError: .picking(picker))
      return
    default: return
    }
    state.mode = .picking(picker)
  }

  /// Asks the model for a preview: success opens the y/n confirmation; failure shows the model's
  /// message and returns to `stayOnError` (so a mistyped code can be corrected).
  static func askToConfirm(_ action: PlanAction, _ state: inout UIState, _ vm: ViewModel, stayOnError: Mode = .browsing) {
    switch vm.advisor.preview(action) {
    case .success(let preview):
      state.mode = .confirming(PendingAction(action: action, preview: preview))
      state.status = nil
    case .failure(let error):
      state.mode = stayOnError
      state.status = .error(error.message)
    }
  }
}

/// Keeping open dialogs true to the latest file and clock.
enum Refresh {
  static func revalidate(_ state: inout UIState, _ vm: ViewModel) {
    state.eventSelection = Browsing.clampedSelection(state.eventSelection, vm)
    switch state.mode {
    case .retention(let sheet):
      // The page was for this customer with auto-renew on; another subscriber or a cancel made
      // elsewhere (the simulator, another key) ends it.
      if sheet.originalTransactionId != vm.state.subscriber.originalTransactionId || vm.state.subscriber.renewalInfo?.autoRenewOn != true {
        state.mode = .browsing
        state.status = .error("cancelled: the retention message no longer applies (the subscriber or its auto-renew changed)")
      }
    case .confirming(let c):
      switch vm.advisor.preview(c.action) {
      case .success(let preview): state.mode = .confirming(PendingAction(action: c.action, preview: preview))
      case .failure(let error):
        state.mode = .browsing
        state.status = .error("cancelled: \(error.message)")
      }
    case .picking(var picker):
      // The reason step's items come from the chosen days, not from the state.
      if picker.kind != .extendReason { picker.items = vm.advisor.targets(picker.kind) }
      if picker.items.isEmpty {
        state.mode = .browsing
        state.status = .error("cancelled: nothing to choose any more")
      } else {
        picker.move(by: 0)
        state.mode = .picking(picker)
      }
    case .eventDetail:
      if vm.eventsTotal == 0 { state.mode = .browsing }
    case .transactions:
      state.transactions.selection = TransactionsKeys.clamp(state.transactions.selection, TransactionsKeys.rows(vm).count)
    case .browsing, .help, .typingCode, .searchingEvents, .confirmingStep:
      break
    }
  }
}
