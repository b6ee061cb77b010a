import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView

/// A support agent previewing a plan change on a real (Production) subscriber is told the change
/// would only edit the file; on test data the confirmation says nothing extra.
@Suite struct ProductionConfirmTests {
  func confirmation(environment: AppStoreEnvironment) -> String {
    let scenario = Scenarios.active.with { state in
      state.subscriber.latestTransaction?.environment = environment
      state.subscriber.renewalInfo?.environment = environment
    }
    let vm = scenario.viewModel()
    var ui = UIState()
    _ = reduce(&ui, .keyPressed(.char("u")), context: vm)
    _ = reduce(&ui, .keyPressed(.enter), context: vm)
    let screen = render(vm, ui, width: 80, height: 24).textDump
    #expect(screen.contains("┌─ Confirm"))
    return screen
  }

  @Test func aProductionFileWarnsThatTheAppStoreHasNotDoneIt() {
    #expect(confirmation(environment: .production).contains("Production data: this changes the file only"))
  }

  @Test func sandboxDataNeedsNoWarning() {
    #expect(!confirmation(environment: .sandbox).contains("Production data"))
  }
}
