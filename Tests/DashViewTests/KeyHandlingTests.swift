import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues
@testable import SimulationRuns

/// Presses keys the way a support person would and checks the whole UI state after each step.
/// Like the runtime, it draws an 80x24 frame after each step and reports its extents.
private struct Session {
  var vm: ViewModel
  var ui = UIState()
  var effects: [UIEffect] = []

  init(_ vm: ViewModel) {
    self.vm = vm
    _ = send(.resized(width: 80, height: 24))
  }

  @discardableResult
  mutating func press(_ keys: Key...) -> [UIEffect] {
    effects = []
    for key in keys { effects += send(.keyPressed(key)) }
    return effects
  }

  mutating func type(_ text: String) {
    for c in text { effects = send(.keyPressed(.char(c))) }
  }

  mutating func send(_ action: UIAction) -> [UIEffect] {
    let effects = reduce(&ui, action, context: vm)
    if let size = ui.screen {
      let extents = render(vm, ui, width: size.width, height: size.height).extents
      if extents != ui.extents { _ = reduce(&ui, .laidOut(extents), context: vm) }
    }
    return effects
  }

  /// The dialog, status and selection alone, as `UIState(...)` spells them (without the screen
  /// size, extents and message log the session's drawing adds).
  var shown: UIState { UIState(mode: ui.mode, status: ui.status, eventSelection: ui.eventSelection) }

  var code: LineEditor? { if case .typingCode(let e) = ui.mode { return e } else { return nil } }
  var picker: Picker? { if case .picking(let p) = ui.mode { return p } else { return nil } }
  var confirmation: PendingAction? { if case .confirming(let c) = ui.mode { return c } else { return nil } }
}

@Suite struct BrowsingKeyTests {
  @Test func qQuitsOnlyWhileBrowsing() {
    var s = Session(Scenarios.active.viewModel())
    #expect(s.press(.char("q")) == [.quit])
    s.press(.char("?"))
    #expect(s.press(.char("q")) == [])
    #expect(s.ui.mode == .browsing)
  }

  @Test func helpOpensScrollsAndCloses() {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("?"))
    #expect(s.ui.mode == .help(offset: 0))
    s.press(.char("j"), .down, .char("k"))
    #expect(s.ui.mode == .help(offset: 1))
    s.press(.up, .up)
    #expect(s.ui.mode == .help(offset: 0))
    s.press(.escape)
    #expect(s.ui.mode == .browsing && s.ui.status == nil)
  }

  @Test func jAndKMoveThroughEventsWithinTheLog() {
    var s = Session(Scenarios.active.viewModel())
    let last = s.vm.notifications.count - 1
    #expect(last == 4)
    s.press(.char("k"))
    #expect(s.ui.eventSelection == 0)
    s.press(.char("j"), .down)
    #expect(s.ui.eventSelection == 2)
    s.press(.char("G"))
    #expect(s.ui.eventSelection == last)
    s.press(.char("j"), .pageDown)
    #expect(s.ui.eventSelection == last)
    s.press(.up)
    #expect(s.ui.eventSelection == last - 1)
    s.press(.home)
    #expect(s.ui.eventSelection == 0)
  }

  @Test func upgradeWithTwoHigherLevelsOpensAPicker() {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("u"))
    #expect(s.picker?.kind == .upgrade)
    #expect(s.picker?.items.map(\.action) == [.upgrade(toProductId: "pass.premium.annual"), .upgrade(toProductId: "pass.premium.monthly")])
    #expect(s.ui.status == nil)
  }

  @Test func downgradeWithOneLowerLevelGoesStraightToConfirmation() {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("d"))
    #expect(s.confirmation?.action == .downgrade(toProductId: "pass.individual.monthly"))
    #expect(s.confirmation?.preview.summary.hasPrefix("Downgrade to Individual") == true)
  }

  @Test func confirmingWithYAsksTheRuntimeToPerform() {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("a"))
    let preview = s.confirmation?.preview
    #expect(s.confirmation?.action == .setAutoRenew(false))
    #expect(s.press(.char("q"), .char("x"), .enter) == [], "only y or n answer a confirmation")
    #expect(s.press(.char("y")) == [.perform(.setAutoRenew(false))])
    #expect(s.shown == UIState(mode: .browsing, status: StatusLine("applying: \(preview!.summary)")))
    _ = s.send(.actionSucceeded("Auto-renew is off; access ends 2026-05-23 18:32 UTC."))
    #expect(s.ui.status == StatusLine("Auto-renew is off; access ends 2026-05-23 18:32 UTC."))
  }

  @Test(arguments: [Key.char("n"), .char("N"), .escape])
  func noOrEscapeCancelsWithoutEffects(_ key: Key) {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("d"))
    #expect(s.press(key) == [])
    #expect(s.shown == UIState(status: StatusLine("cancelled; nothing was changed")))
  }

  @Test func unavailableKeysSayWhyAndOpenNothing() {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("w"))
    #expect(s.shown == UIState(status: .error("no win-back offer: subscription is active")))
    var expired = Session(Scenarios.expiredWithWinBack.viewModel())
    expired.press(.char("a"))
    #expect(expired.shown == UIState(status: .error("auto-renew: the subscription is expired")))
    var top = Session(Scenarios.billingRetryNone.viewModel())
    top.press(.char("u"))
    #expect(top.shown == UIState(status: .error(ActionError.alreadyTopLevel.message)))
  }

  @Test func failedActionIsShownAsAnError() {
    var s = Session(Scenarios.active.viewModel())
    _ = s.send(.actionFailed("state.json changed on disk; try again"))
    #expect(s.ui.status == .error("state.json changed on disk; try again"))
  }
}

@Suite struct CodeEntryKeyTests {
  @Test func printableKeysAreTextEvenQ() {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("r"))
    s.type("q?udq")
    #expect(s.effects == [])
    #expect(s.code?.text == "q?udq")
    #expect(s.code?.cursor == 5)
  }

  @Test func editingKeysMoveAndDelete() {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("r"))
    s.type("SPRNG26")
    s.press(.left, .left, .left, .left)
    s.type("I")
    #expect(s.code?.text == "SPRING26")
    s.press(.home, .delete, .end, .backspace)
    #expect(s.code?.text == "PRING2")
    #expect(s.code?.cursor == 6)
    s.press(.home, .backspace, .right)
    #expect(s.code?.cursor == 1)
  }

  @Test func escapeCancelsAndKeepsNothing() {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("r"))
    s.type("ABC")
    #expect(s.press(.escape) == [])
    #expect(s.shown == UIState(status: StatusLine("code entry cancelled")))
  }

  @Test func unknownCodeStaysInTheFieldWithTheModelsMessage() {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("r"))
    s.type("NOPE42")
    s.press(.enter)
    #expect(s.code?.text == "NOPE42")
    #expect(s.ui.status == .error(ActionError.unknownCode("NOPE42").message))
  }

  @Test func emptyCodeIsRefused() {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("r"))
    s.type("   ")
    s.press(.enter)
    #expect(s.code?.text == "   ")
    #expect(s.ui.status == .error(ActionError.emptyCode.message))
  }

  @Test func validCodeOpensItsConfirmation() {
    var s = Session(Scenarios.example("new-subscriber").viewModel())
    s.press(.char("r"))
    s.type(" NF7KQ2XW9P4M ")
    s.press(.enter)
    #expect(s.confirmation?.action == .redeemOfferCode("NF7KQ2XW9P4M"))
    #expect(s.press(.char("y")) == [.perform(.redeemOfferCode("NF7KQ2XW9P4M"))])
  }

  @Test func controlCharactersAndOverlongCodesAreRejected() {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("r"))
    s.press(.char("\u{1B}"), .char("\u{202E}"))
    #expect(s.code?.text == "")
    #expect(s.ui.status == .error("only printable characters can be typed in a code"))
    s.type(String(repeating: "A", count: LineEditor.maxLength))
    #expect(s.ui.status == nil, "typing clears the complaint")
    s.type("B")
    #expect(s.code?.text == String(repeating: "A", count: LineEditor.maxLength))
    #expect(s.ui.status == .error("a code is at most 64 characters"))
  }
}

@Suite struct PickerKeyTests {
  @Test func jkAndArrowsMoveWithinTheList() {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("u"))
    s.press(.char("j"))
    #expect(s.picker?.selection == 1)
    s.press(.down, .char("j"))
    #expect(s.picker?.selection == 1)
    s.press(.char("k"), .up)
    #expect(s.picker?.selection == 0)
    s.press(.end)
    #expect(s.picker?.selection == 1)
  }

  @Test func enterConfirmsTheSelectedTarget() {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("u"), .down, .enter)
    #expect(s.confirmation?.action == .upgrade(toProductId: "pass.premium.monthly"))
    #expect(s.confirmation?.preview.refundMilli ?? 0 > 0)
    #expect(s.press(.char("y")) == [.perform(.upgrade(toProductId: "pass.premium.monthly"))])
  }

  @Test(arguments: [Key.escape, .char("q")])
  func escapeOrQCancelsThePicker(_ key: Key) {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("u"))
    #expect(s.press(key) == [])
    #expect(s.shown == UIState(status: StatusLine("cancelled; nothing was changed")))
  }

  @Test func winBackPickerListsEligibleOffersBestFirst() {
    let scenario = Scenarios.expiredWithWinBack
    var s = Session(scenario.viewModel())
    s.press(.char("w"))
    #expect(s.picker?.items.map(\.action) == scenario.report.winBack.eligible.map { .acceptWinBack(offerId: $0.offerId) })
    s.press(.enter)
    #expect(s.confirmation?.action == .acceptWinBack(offerId: scenario.report.winBack.eligible[0].offerId))
  }
}

@Suite struct ReadOnlyAndSimulationKeyTests {
  @Test(arguments: [("u", "upgrade"), ("d", "downgrade"), ("c", "crossgrade"), ("r", "redeeming a code"), ("w", "win-back"), ("a", "auto-renew"), (">", "advance to next event")])
  func readOnlyRefusesMutatingKeys(_ key: Character, _ name: String) {
    var s = Session(Scenarios.active.viewModel(options: DisplayOptions(readOnly: true)))
    #expect(s.press(.char(key)) == [])
    #expect(s.shown == UIState(status: .error("read-only: \(name) disabled (started with --read-only)")))
  }

  /// `--now` views another moment; writing "then" would date changes at a time the file's clock
  /// is not at (a reviewer's `a` under `--now 2026-05-20` signed a change on the 20th while the
  /// file's clock said the 14th).
  @Test(arguments: [("u", "upgrade"), ("a", "auto-renew"), (">", "advance to next event"), ("F", "refund")])
  func viewingAnotherMomentRefusesMutatingKeys(_ key: Character, _ name: String) {
    let s0 = Scenarios.active
    let at = s0.now + .days(6)
    var s = Session(s0.viewModel(clock: DashClock(simulated: s0.now, wall: s0.wall, viewingAt: at)))
    #expect(s.press(.char(key)) == [])
    #expect(s.ui.status == .error("--now: viewing \(Format.date(at)), so \(name) is off; open the file without --now to change it"))
  }

  @Test func readOnlyFooterOffersNoMutatingKey() {
    let vm = Scenarios.active.viewModel(options: DisplayOptions(readOnly: true))
    let footer = render(vm, UIState(), width: 120, height: 40).lines[38]
    #expect(footer == "? help  q quit")
    var s = Session(vm)
    #expect(s.press(.char("q")) == [.quit])
  }

  @Test func simulationKeysBecomeEffectsOnTestData() {
    var s = Session(Scenarios.active.viewModel())
    #expect(s.press(.char(">")) == [.simulate(.advanceToNextEvent)])
    #expect(s.ui.status == StatusLine("simulating: advance to next event…"))
    #expect(s.press(.char("+")) == [.simulate(.advance(.day))])
    #expect(s.press(.char("f")) == [.simulate(.failNextRenewal)])
  }

  @Test func simulationKeysAreRefusedOnProduction() {
    let vm = Scenarios.production.viewModel()
    #expect(!vm.simulationKeysAllowed)
    var s = Session(vm)
    #expect(s.press(.char(">")) == [])
    #expect(s.ui.status == .error("simulation keys are disabled on Production data (advance to next event refused)"))
    #expect(!render(vm, UIState(), width: 120, height: 40).lines[38].contains("next event"))
  }

  @Test func simulationStepsThatDoNotApplySayWhy() {
    var s = Session(Scenarios.active.viewModel())
    #expect(s.press(.char("R")) == [])
    #expect(s.ui.status == .error("resolve billing issue: there is no billing issue to resolve (the subscription is not in grace or billing retry)."))
    var grace = Session(Scenarios.grace.viewModel())
    #expect(grace.press(.char("R")) == [.simulate(.resolveBillingIssue)])
  }

  /// Availability is the engine's dry run, not a copy of its rules: in grace with auto-renew off
  /// the App Store no longer retries, so `R` is not offered, and pressing it says the engine's why
  /// (before, the key bar offered it and the engine refused it after the press).
  @Test func resolveIsNotOfferedInGraceWithAutoRenewOff() {
    let cancelled = Scenarios.grace.with { $0.subscriber.renewalInfo?.autoRenewStatus = .off }
    let vm = cancelled.viewModel()
    let footer = render(vm, UIState(), width: 200, height: 50).lines[48]
    #expect(!footer.contains("R resolve billing"), "\(footer)")
    #expect(footer.contains("> next event"), "\(footer)")
    var s = Session(vm)
    #expect(s.press(.char("R")) == [])
    #expect(s.ui.status == .error("resolve billing issue: auto-renew is off: the customer cancelled, so the App Store no longer retries billing (turn auto-renew on first)."))
  }

  /// `x` in grace: the customer still has access (ACCESS: YES), so the refusal does not say
  /// "not active … already lapsed".
  @Test func expireInGraceSaysTheCustomerStillHasAccess() {
    var s = Session(Scenarios.grace.viewModel())
    #expect(s.press(.char("x")) == [])
    #expect(s.ui.status?.isError == true)
    let message = s.ui.status?.message ?? ""
    #expect(message.contains("in the billing grace period: the customer keeps access until "), "\(message)")
    #expect(!message.contains("not active"), "\(message)")
    #expect(!message.contains("lapsed"), "\(message)")
  }
}

@Suite struct ReloadAndTickTests {
  @Test func aReloadThatMakesThePendingActionInvalidCancelsIt() {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("d"))
    s.vm = Scenarios.expiredWithWinBack.viewModel()
    #expect(s.send(.fileReloaded(changed: [])) == [])
    #expect(s.ui.mode == .browsing)
    #expect(s.ui.status?.isError == true)
    #expect(s.ui.status?.message.hasPrefix("cancelled: ") == true)
  }

  @Test func aTickRecomputesTheOpenPreview() {
    let scenario = Scenarios.active
    var s = Session(scenario.viewModel())
    s.press(.char("u"), .enter)
    let before = s.confirmation?.preview.refundMilli
    s.vm = scenario.with(elapsed: .days(3)).viewModel()
    _ = s.send(.ticked(s.vm.now))
    let after = s.confirmation?.preview.refundMilli
    #expect(before != nil && after != nil)
    #expect(after! < before!, "less unused time is left three days later")
  }

  @Test func anInvalidFileCancelsAConfirmationButKeepsBrowsing() {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("d"))
    _ = s.send(.fileFailed("active.json:3:9: expected a value"))
    #expect(s.ui.mode == .browsing)
    #expect(s.ui.status == .error("cancelled: the file became invalid (active.json:3:9: expected a value)"))
    #expect(s.ui.fileError == "active.json:3:9: expected a value")
    _ = s.send(.fileFailed("active.json:3:9: expected a value"))
    #expect(s.ui.mode == .browsing)
  }

  @Test func aShorterLogClampsTheSelection() {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("G"))
    s.vm = Scenarios.grace.viewModel()
    _ = s.send(.fileReloaded(changed: []))
    #expect(s.ui.eventSelection == s.vm.notifications.count - 1)
  }

  /// `b` on a lapsed customer: a plan list (the group's plans), a preview naming the
  /// resubscription and its price, and `y` performs it; refused (and not in the key bar) while active.
  @Test func buyResubscribesALapsedCustomerAfterAPreview() {
    let vm = Scenarios.expiredWithWinBack.viewModel()
    #expect(render(vm, UIState(), width: 200, height: 50).lines[48].contains("b buy"))
    var s = Session(vm)
    s.press(.char("b"))
    guard case .picking(let picker) = s.ui.mode else { Issue.record("b did not open the plan list: \(s.ui.mode)"); return }
    #expect(picker.kind == .buy)
    let premium = picker.items.firstIndex { $0.action == .buy(productId: "pass.premium.monthly") }
    #expect(premium != nil)
    for _ in 0..<(premium ?? 0) { s.press(.down) }
    s.press(.enter)
    guard case .confirming(let c) = s.ui.mode else { Issue.record("no confirmation: \(s.ui.mode)"); return }
    #expect(c.action == .buy(productId: "pass.premium.monthly"))
    #expect(s.press(.char("y")) == [.perform(.buy(productId: "pass.premium.monthly"))])

    let active = Scenarios.active.viewModel()
    #expect(!render(active, UIState(), width: 200, height: 50).lines[48].contains("b buy"))
    var a = Session(active)
    #expect(a.press(.char("b")) == [])
    #expect(a.ui.status?.message.hasPrefix("buy: Already subscribed to") == true, "\(String(describing: a.ui.status))")
  }
}

/// `e`: Apple's Extend a Subscription Renewal Date, previewed and confirmed like every key.
@Suite struct ExtendKeyTests {
  @Test func eOffersDayCountsThenPreviewsThenPerforms() {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("e"))
    #expect(s.picker?.kind == .extend)
    #expect(s.picker?.items.map(\.action) == [1, 7, 14, 30, 90].map { .extendRenewalDate(days: $0, reason: .customerSatisfaction) })
    s.press(.down, .enter)
    // The days chosen, support picks the reason Apple's notification will carry (0-3).
    #expect(s.picker?.kind == .extendReason)
    #expect(s.picker?.items.map(\.action) == [.customerSatisfaction, .serviceIssueOrOutage, .other, .undeclared].map {
      .extendRenewalDate(days: 7, reason: $0)
    })
    #expect(s.picker?.items.map(\.title) == ["customer satisfaction (1)", "service issue or outage (3)", "other (2)", "undeclared (0)"])
    s.press(.enter)
    #expect(s.confirmation?.action == .extendRenewalDate(days: 7, reason: .customerSatisfaction))
    #expect(s.confirmation?.preview.summary.hasPrefix("Extend Family by 7 days") == true)
    #expect(s.press(.char("y")) == [.perform(.extendRenewalDate(days: 7, reason: .customerSatisfaction))])
  }

  @Test func supportPicksAnotherReason() {
    var s = Session(Scenarios.active.viewModel())
    s.press(.char("e"), .enter, .down, .enter)
    #expect(s.confirmation?.action == .extendRenewalDate(days: 1, reason: .serviceIssueOrOutage))
    #expect(s.confirmation?.preview.summary.hasPrefix("Extend Family by 1 day (service issue or outage)") == true)
    // Esc in the reason step cancels the whole dialog: nothing written.
    var t = Session(Scenarios.active.viewModel())
    #expect(t.press(.char("e"), .enter, .escape) == [])
    #expect(t.ui.mode == .browsing)
  }

  @Test func inGraceTheKeySaysApplesError() {
    var s = Session(Scenarios.grace.viewModel())
    #expect(s.press(.char("e")) == [])
    #expect(s.ui.mode == .browsing)
    #expect(s.ui.status?.message.hasPrefix("SubscriptionExtensionIneligibleError (4030004)") == true)
  }

  @Test func productionFilesRefuseTheKey() {
    var s = Session(Scenarios.production.viewModel())
    s.press(.char("e"))
    #expect(s.ui.mode == .browsing)
    #expect(s.ui.status?.message.contains("Production") == true)
  }
}

/// The refund workflow's keys and the pending request on the plan panel (issue 10 item 11).
@Suite struct RefundRequestKeyTests {
  /// `active` with a refund requested at its clock.
  func requested(elapsed: Span = .zero) -> Scenario {
    let base = Scenarios.active
    let requestedAt = base.now
    return base.with(elapsed: elapsed) { state in
      var settings = (try? Simulator.settings(state)) ?? SimulationSettings()
      settings.refundRequest = RefundRequest(requestedDate: requestedAt, reason: .unsatisfiedWithPurchase, transactionId: nil)
      state.setSimulation(settings)
    }
  }

  @Test func theRequestAndItsDeadlineShowUntilTheTwelveHoursEnd() {
    let before = RefundRequestText.line(requested().state, now: Scenarios.active.now + (Span.hours(12) - Span(ms: 1)), compact: false)
    #expect(before?.contains("consumption info due by") == true)
    let after = RefundRequestText.line(requested().state, now: Scenarios.active.now + .hours(12), compact: false)
    #expect(after?.contains("the 12 hours for consumption info ended") == true)
    #expect(RefundRequestText.line(Scenarios.active.state, now: Scenarios.active.now, compact: false) == nil)
  }

  /// Once the developer's server answered (Send Consumption Information), the line says so and
  /// whether it came within the 12 hours, instead of counting down.
  @Test func consumptionInformationSentReplacesTheDeadline() {
    func sent(after wait: Span) -> String? {
      let requestedAt = Scenarios.active.now
      let scenario = requested().with(elapsed: .zero) { state in
        var settings = (try? Simulator.settings(state)) ?? SimulationSettings()
        settings.refundRequest?.consumption = ConsumptionInformation(
          receivedDate: requestedAt + wait, customerConsented: true, deliveryStatus: "DELIVERED", sampleContentProvided: false,
          consumptionPercentage: 37_500, refundPreference: "GRANT_FULL")
        state.setSimulation(settings)
      }
      return RefundRequestText.line(scenario.state, now: requestedAt + .hours(13), compact: false)
    }
    let inTime = sent(after: .hours(12))
    #expect(inTime?.contains("consumption info sent") == true)
    #expect(inTime?.contains("DELIVERED, 37.5% consumed, prefers GRANT_FULL") == true)
    #expect(inTime?.contains("after the 12 hours") == false)
    #expect(inTime?.contains("due by") == false && inTime?.contains("ended") == false)
    #expect(sent(after: Span.hours(12) + Span(ms: 1))?.contains("after the 12 hours (ignored)") == true)
  }

  @Test func requestDeclineAndReverseKeysFollowTheRequest() {
    var s = Session(Scenarios.active.viewModel())
    #expect(s.press(.char("D")) == [])
    #expect(s.ui.status?.message == "decline refund: no refund request is waiting for the App Store's decision.")
    #expect(s.press(.char("C")) == [.simulate(.requestRefund(.unsatisfiedWithPurchase))])
    #expect(s.press(.char("V")) == [])
    var pending = Session(requested().viewModel())
    #expect(pending.press(.char("C")) == [])
    #expect(pending.press(.char("D")) == [.simulate(.declineRefund)])
  }
}

/// A support person opens a subscriber from the list and goes back with Esc, as they close any
/// overlay; a dashboard opened on its own ignores Esc (q quits it).
@Suite struct EscapeBackToListTests {
  @Test func escGoesBackToTheListOnlyFromTheList() {
    var fromList = Session(Scenarios.active.viewModel(options: DisplayOptions(openedFromList: true)))
    #expect(fromList.press(.escape) == [.quit])
    var alone = Session(Scenarios.active.viewModel())
    #expect(alone.press(.escape) == [])
    #expect(alone.press(.char("q")) == [.quit])
  }

  @Test func escClosesAnOverlayFirstEvenFromTheList() {
    var s = Session(Scenarios.active.viewModel(options: DisplayOptions(openedFromList: true)))
    s.press(.char("?"))
    #expect(s.press(.escape) == [])
    #expect(s.ui.mode == .browsing)
    #expect(s.press(.escape) == [.quit])
  }
}
