import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView
@testable import RetentionMessaging

/// Going to cancel (`a` with auto-renew on) when the developer set up Retention Messaging: the
/// customer sees the message first, then keeps, takes the offer or cancels.
@Suite struct RetentionFlowTests {
  static let stay = RetentionSetup.Message(header: "Stay with the birds", body: "Your feeders miss you.", bulletPoints: ["Every backyard"])
  static let premium = RetentionSetup.Message(header: "Try Premium instead", body: "Every feeder, every bird.")

  static func model(_ setup: RetentionSetup?) -> ViewModel {
    var vm = Scenarios.active.viewModel()
    vm.retention = setup
    return vm
  }

  static func outcome(_ kind: RetentionOffer.Kind, _ message: RetentionSetup.Message, source: RetentionOffer.Source = .realtime) -> RetentionOutcome {
    RetentionOutcome(offer: RetentionOffer(kind: kind, source: source, messageIdentifier: "m1", message: message), requestIdentifier: "r1", elapsedMs: 12)
  }

  @Test("Nothing configured: a opens Apple's plain confirmation, as before")
  func nothingConfigured() {
    var ui = UIState()
    #expect(reduce(&ui, .keyPressed(.char("a")), context: Self.model(nil)) == [])
    guard case .confirming(let c) = ui.mode else { Issue.record("expected the confirmation, got \(ui.mode)"); return }
    #expect(c.action == .setAutoRenew(false))
  }

  @Test("A realtime URL: a asks the runtime to ask the developer's server, and says so")
  func asksTheServer() {
    var ui = UIState()
    let vm = Self.model(RetentionSetup(realtimeURL: "https://example.com/retention"))
    #expect(reduce(&ui, .keyPressed(.char("a")), context: vm) == [.askRetention])
    #expect(ui.mode == .browsing)
    #expect(ui.status?.message.contains("asks https://example.com/retention") == true)
  }

  @Test("Only a default message: it is shown at once, no request")
  func defaultMessageAtOnce() throws {
    var ui = UIState()
    let product = try #require(Scenarios.active.state.subscriber.latestTransaction?.productId)
    let vm = Self.model(RetentionSetup(messages: ["m1": Self.stay], defaults: [product + "/en-US": "m1"]))
    #expect(reduce(&ui, .keyPressed(.char("a")), context: vm) == [])
    guard case .retention(let sheet) = ui.mode else { Issue.record("expected the retention sheet, got \(ui.mode)"); return }
    #expect(sheet.offer.source == .defaultMessage && sheet.accept == nil)
    let screen = render(vm, ui, width: 120, height: 40).textDump
    #expect(screen.contains("Cancel subscription") && screen.contains("Stay with the birds") && screen.contains("Every backyard"))
    #expect(screen.contains("k keep") && screen.contains("c cancel subscription") && !screen.contains("a switch"))
  }

  @Test("A switch-plan answer: a previews the upgrade, y applies it; k keeps; c goes to Apple's confirmation")
  func switchPlan() {
    let vm = Self.model(RetentionSetup(realtimeURL: "https://example.com/retention"))
    var ui = UIState()
    _ = reduce(&ui, .retentionShown(Self.outcome(.alternateProduct(productId: "pass.premium.monthly"), Self.premium)), context: vm)
    guard case .retention(let sheet) = ui.mode else { Issue.record("expected the retention sheet, got \(ui.mode)"); return }
    #expect(sheet.accept == .upgrade(toProductId: "pass.premium.monthly"))
    #expect(ui.status?.message == "retention message: chosen by the developer's server in 12 ms")
    let screen = render(vm, ui, width: 120, height: 40).textDump
    #expect(screen.contains("Switch to Premium (pass.premium.monthly)") && screen.contains("a switch"))

    var accept = ui
    #expect(reduce(&accept, .keyPressed(.char("a")), context: vm) == [])
    guard case .confirming(let c) = accept.mode else { Issue.record("expected the confirmation, got \(accept.mode)"); return }
    #expect(c.action == .upgrade(toProductId: "pass.premium.monthly"))
    #expect(reduce(&accept, .keyPressed(.char("y")), context: vm) == [.perform(.upgrade(toProductId: "pass.premium.monthly"))])

    var keep = ui
    #expect(reduce(&keep, .keyPressed(.char("k")), context: vm) == [])
    #expect(keep.mode == .browsing && keep.status?.message.hasPrefix("kept") == true)

    var cancel = ui
    _ = reduce(&cancel, .keyPressed(.char("c")), context: vm)
    guard case .confirming(let cc) = cancel.mode else { Issue.record("expected the confirmation, got \(cancel.mode)"); return }
    #expect(cc.action == .setAutoRenew(false))
  }

  @Test("No message at all after a failed answer: Apple's plain confirmation, with why")
  func noMessage() {
    let vm = Self.model(RetentionSetup(realtimeURL: "https://example.com/retention"))
    var ui = UIState()
    _ = reduce(&ui, .retentionShown(RetentionOutcome(offer: nil, problem: "no answer within 700 ms")), context: vm)
    guard case .confirming(let c) = ui.mode else { Issue.record("expected the confirmation, got \(ui.mode)"); return }
    #expect(c.action == .setAutoRenew(false))
    #expect(ui.status?.message.contains("no answer within 700 ms") == true)
  }

  @Test("The developer's text cannot drive the terminal: control characters are cleaned")
  func hostileText() {
    let vm = Self.model(RetentionSetup(realtimeURL: "https://example.com/retention"))
    var ui = UIState()
    let evil = RetentionSetup.Message(header: "Stay\u{1B}[2J", body: "body\u{07}")
    _ = reduce(&ui, .retentionShown(Self.outcome(.message, evil)), context: vm)
    let screen = render(vm, ui, width: 120, height: 40).textDump
    #expect(!screen.contains("\u{1B}") && !screen.contains("\u{07}") && screen.contains("Stay"))
  }
}
