import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues

/// Issue 22 §6: words on the dashboard that misled a newcomer.
@Suite struct DashboardWordsTests {
  /// Redeeming a code for the current plan while a downgrade is pending cancels the downgrade:
  /// the preview says so, from the difference between the states, not from the code's sentence.
  @Test func aPreviewSaysWhatElseTheActionChanges() throws {
    let vm = Scenarios.example("pending-downgrade").viewModel()
    guard case .success(let preview) = vm.advisor.preview(.redeemOfferCode("SPRING26")) else {
      Issue.record("SPRING26 refused"); return
    }
    #expect(preview.also == ["cancels the pending downgrade to Individual"], "\(preview.summary) \(preview.also)")
    var ui = UIState()
    ui.mode = .confirming(PendingAction(action: .redeemOfferCode("SPRING26"), preview: preview))
    let screen = render(vm, ui, width: 100, height: 30).textDump
    #expect(screen.contains("Also: cancels the pending downgrade to Individual."))
  }

  /// The main effect is not said twice: turning auto-renew off says nothing "also".
  @Test func theMainEffectIsNotRepeatedAsAlso() throws {
    let vm = Scenarios.active.viewModel()
    guard case .success(let preview) = vm.advisor.preview(.setAutoRenew(false)) else { Issue.record("refused"); return }
    #expect(preview.also.isEmpty, "\(preview.also)")
  }

  /// Within an hour of a renewal at 18:32:14 a dialog must not say 18:32 (a fast rate makes
  /// every date this near): the seconds stay.
  @Test func dialogTimesKeepSecondsNearNow() throws {
    // 2026-05-23 18:20:00 UTC; the renewal is 18:32:14.
    let near = Scenarios.active.with(elapsed: Span(ms: 1_779_560_400_000 - 1_778_770_800_000))
    let vm = near.viewModel()
    guard case .success(let preview) = vm.advisor.preview(.setAutoRenew(false)) else { Issue.record("refused"); return }
    #expect(preview.summary.contains("18:32:14"), "\(preview.summary)")
    guard case .success(let extend) = vm.advisor.preview(.extendRenewalDate(days: 1, reason: .customerSatisfaction)) else { Issue.record("refused"); return }
    #expect(extend.summary.contains("instead of 2026-05-23 18:32:14 UTC"), "\(extend.summary)")
  }

  /// In grace the key that resolves the billing issue leads the key bar.
  @Test func theKeyBarPutsTheStatesKeysFirst() {
    let vm = Scenarios.grace.viewModel()
    let keys = FooterPanel.hints(vm, UIState(), glyphs: .unicode, ascii: false).map(\.key)
    let r = keys.firstIndex(of: "R"), o = keys.firstIndex(of: "o")
    #expect(keys.first == "?" && r == 1, "\(keys)")
    #expect(o != nil, "\(keys)")
    if let r, let o { #expect(r < o) }
    // Nothing is lost by the reordering: the same keys as the table's order offers.
    let lines = render(vm, UIState(), width: 80, height: 24).lines
    let footer = lines.first { $0.contains("q quit") } ?? ""
    #expect(footer.hasPrefix("? help  R resolve billing"), "\(lines)")
  }

  @Test func readOnlyHelpSaysReadOnlyNotNotNow() {
    let vm = Scenarios.active.viewModel(options: DisplayOptions(readOnly: true))
    let text = Overlays.helpLines(vm, UIState(), ascii: false).map(\.text)
    #expect(text.contains { $0.contains("read-only: upgrade to a higher level") }, "\(text)")
    #expect(!text.contains { $0.contains("not now:") })
    // A writable session still says "not now" for a key the state does not allow.
    let writable = Overlays.helpLines(Scenarios.active.viewModel(), UIState(), ascii: false).map(\.text)
    #expect(writable.contains { $0.contains("not now:") })
  }

  /// Two plans called "Pro" (one per group) read apart in the buy dialog.
  @Test func theBuyDialogTellsApartPlansWithOneName() {
    let s = Scenarios.example("new-subscriber").with { st in
      var catalog = st.catalog
      for g in catalog.groups.indices {
        for p in catalog.groups[g].subscriptions.indices { catalog.groups[g].subscriptions[p].displayName = "Pro" }
      }
      st = SubscriptionState(document: st.document, catalog: catalog)
    }
    let titles = s.viewModel().advisor.targets(PickerKind.buy).map(\PickerItem.title)
    #expect(titles.count >= 2)
    #expect(Set(titles).count == titles.count, "\(titles)")
    #expect(titles.allSatisfy { $0.hasPrefix("Pro (") }, "\(titles)")
  }
}

/// The watched file is replaced by another customer's: the dashboard says so, lights up the ids,
/// and a dialog opened for the previous customer is cancelled rather than applied to this one.
@Suite struct AnotherSubscriberTests {
  @Test func aReloadToAnotherSubscriberIsSaid() throws {
    let before = Scenarios.active.viewModel()
    let other = Scenarios.active.with { s in
      s.subscriber.latestTransaction?.originalTransactionId = "999000999"
      s.subscriber.renewalInfo?.originalTransactionId = "999000999"
    }.viewModel()
    let changed = ChangeDetector.diff(old: before, new: other)
    #expect(changed.contains(.subscriber))
    #expect(!ChangeDetector.diff(old: before, new: before).contains(.subscriber))

    var ui = UIState()
    _ = reduce(&ui, .keyPressed(.char("a")), context: before)
    guard case .confirming = ui.mode else { Issue.record("a did not open its confirmation: \(ui.mode)"); return }
    _ = reduce(&ui, .fileReloaded(changed: changed), context: other)
    #expect(ui.mode == .browsing)
    #expect(ui.status == .error("active.json now holds another subscriber (originalTransactionId 999000999): everything on screen is theirs; the open dialog was cancelled"))
    let screen = render(other, ui, width: 120, height: 30).textDump
    #expect(screen.contains("now holds another subscriber"))
  }
}
