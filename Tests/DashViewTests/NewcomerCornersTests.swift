import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView
@testable import SimulationRuns

/// What a new user hit on the dashboard, each as they met it: a downgrade waiting for a
/// commitment's end, the buy dialog's order, and a copy inside tmux.
@Suite struct NewcomerCornersTests {
  /// Examples/commitment.json (payment 4 of 12 of Premium (Annual), the commitment ends
  /// 2027-02-01 08:00) after the customer chose Family for when it ends.
  static func commitmentWithDowngrade() throws -> Scenario {
    let scenario = Scenarios.example("commitment")
    let change = try Actions.apply(.downgrade(toProductId: "pass.family.monthly"), to: scenario.state, at: scenario.now).get()
    return scenario.with { $0 = change.state }
  }

  @Test func aDowngradeChosenForTheCommitmentsEndSaysThatDateAndThePlansName() throws {
    let scenario = try Self.commitmentWithDowngrade()
    let vm = scenario.viewModel()
    let screen = render(vm, scenario.ui(), width: 120, height: 40).textDump
    let family = try #require(screen.split(separator: "\n").first { $0.contains("Family  ") && $0.contains(" level ") }, "\(screen)")
    #expect(family.hasPrefix("◆ Family") && family.contains("pending downgrade on 2027-02-01, when the commitment ends"), "\(family)")
    #expect(!screen.contains("at the next renewal"))
    #expect(!family.contains("pass.family.monthly"))
    // Choosing it again says the same, in the plan's name.
    let again = Actions.preview(.downgrade(toProductId: "pass.family.monthly"), in: scenario.state, at: scenario.now)
    guard case .failure(let refusal) = again else { Issue.record("chose Family twice: \(again)"); return }
    #expect(refusal.message == "Family is already chosen for when the 12-month commitment ends on 2027-02-01 08:00 UTC.")
    // The downgrade dialog marks it pending, with its date.
    var ui = scenario.ui()
    _ = reduce(&ui, .resized(width: 120, height: 40), context: vm)
    _ = reduce(&ui, .keyPressed(.char("d")), context: vm)
    let dialog = render(vm, ui, width: 120, height: 40).textDump
    #expect(dialog.contains("Family — 7.99 GBP / 1 month  already pending for 2027-02-01 08:00"), "\(dialog)")
  }

  @Test func theBuyDialogListsPlansInThePlansPanelsOrder() {
    // Examples/expired-voluntary.json: the catalog file lists Individual, Family, Duo, Premium,
    // Premium (Annual); the plans panel lists them by level, then price.
    let scenario = Scenarios.expiredWithWinBack
    let vm = scenario.viewModel()
    let panel = render(vm, scenario.ui(), width: 120, height: 40).textDump.split(separator: "\n")
      .filter { $0.contains(" USD / 1 ") && $0.contains("  level ") }
      .map { $0.dropFirst(2).prefix(while: { $0 != " " }) }.map(String.init)
    #expect(panel == ["Premium", "Premium", "Family", "Duo", "Individual"])
    let buy = vm.advisor.targets(.buy).map { $0.title.prefix(while: { $0 != " " }) }.map(String.init)
    #expect(buy == panel)
  }

  @Test func aCopyInsideTmuxThatDropsItSaysHowToLetItThrough() {
    let vm = Scenarios.grace.viewModel()
    var ui = UIState()
    _ = reduce(&ui, .resized(width: 120, height: 40), context: vm)
    let effects = reduce(&ui, .keyPressed(.char("y")), context: vm)
    guard case .copyToClipboard? = effects.first else { Issue.record("no copy: \(effects)"); return }
    // tmux's default, `external`: the sequence never reaches the terminal.
    var held = ui
    _ = reduce(&held, .copyRouted(.tmux(setClipboard: "external")), context: vm)
    let said = held.status?.message ?? ""
    #expect(held.status?.isError == true)
    #expect(!said.hasPrefix("copied"))
    #expect(said.contains("set-clipboard is external") && said.contains("tmux set -g set-clipboard on"), "\(said)")
    // With `set-clipboard on`, or outside tmux, "copied" stands.
    for route: ClipboardRoute in [.tmux(setClipboard: "on"), .terminal] {
      var through = ui
      _ = reduce(&through, .copyRouted(route), context: vm)
      #expect(through.status?.message.hasPrefix("copied event DID_FAIL_TO_RENEW") == true, "\(route)")
    }
  }

  @Test func dataALocalRootSignedIsNeverCalledUnsigned() {
    func flags(_ signature: Provenance.Signature) -> [String] {
      var state = Scenarios.active.state
      let p = Provenance(input: "t.jws", shape: "compact JWS", signature: signature, environment: "Sandbox")
      state.subscriber.latestTransaction?.source[Provenance.key] = p.json
      return ListRow.derive(file: "a.json", state: state, at: Scenarios.active.now).flags.map(\.word)
    }
    #expect(flags(.trustedRoot).contains("not-apple"))
    #expect(!flags(.trustedRoot).contains("unsigned") && !flags(.trustedRoot).contains("signed"))
    #expect(flags(.unsigned).contains("unsigned"))
    #expect(flags(.appleSigned).contains("signed"))
    // The dashboard's header says it in `subdash verify`'s words.
    let header = Scenarios.active.with { s in
      let p = Provenance(input: "t.jws", shape: "compact JWS", signature: .trustedRoot, environment: "Sandbox")
      s.subscriber.latestTransaction?.source[Provenance.key] = p.json
    }.viewModel()
    let top = render(header, UIState(), width: 120, height: 40).lines[0]
    #expect(top.hasPrefix("SubDash [locally signed, not Apple (Sandbox)]"), "\(top)")
  }
}
