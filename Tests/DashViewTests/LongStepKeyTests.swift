import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues

/// `+` on a file whose day holds more than `LongStep.confirmAbove` events asks first; while the
/// step runs the status line counts.
@Suite struct LongStepKeyTests {
  static func viewModel(size: LongStep.Size?) -> ViewModel {
    var vm = Scenarios.example("active").viewModel()
    vm.advisor.stepSize = { _ in size }
    return vm
  }

  @Test func aLongPlusAsksFirstWithTheCountAndYRunsIt() {
    let vm = Self.viewModel(size: LongStep.Size(events: 501, complete: false, estimate: 2_880))
    var ui = UIState()
    _ = reduce(&ui, .resized(width: 80, height: 24), context: vm)
    #expect(reduce(&ui, .keyPressed(.char("+")), context: vm).isEmpty)
    guard case .confirmingStep(let step) = ui.mode else {
      Issue.record("no confirmation: \(ui.mode)")
      return
    }
    #expect(step.command == .advance(.day))
    let text = render(vm, ui, width: 80, height: 24).textDump
    #expect(text.contains("about 2880"))
    assertSnapshot(render(vm, ui, width: 80, height: 24), named: "long-step-confirm-80x24")
    var cancelled = ui
    #expect(reduce(&cancelled, .keyPressed(.char("n")), context: vm).isEmpty)
    #expect(cancelled.mode == .browsing)
    #expect(reduce(&ui, .keyPressed(.char("y")), context: vm) == [.simulate(.advance(.day))])
    let t0 = Instant(ms: 1_778_770_800_000)
    _ = reduce(&ui, .stepProgressed(StepProgress(notifications: 750, clock: t0, target: t0 + .hours(18))), context: vm)
    #expect(ui.status?.message.hasPrefix("advancing: 750 notifications written, clock 2026-05-14 15:00:00 of 2026-05-15 09:00:00") == true)
  }

  @Test func aShortPlusRunsAtOnce() {
    let vm = Self.viewModel(size: LongStep.Size(events: 3, complete: true, estimate: 3))
    var ui = UIState()
    _ = reduce(&ui, .resized(width: 80, height: 24), context: vm)
    #expect(reduce(&ui, .keyPressed(.char("+")), context: vm) == [.simulate(.advance(.day))])
    #expect(ui.mode == .browsing)
  }
}
