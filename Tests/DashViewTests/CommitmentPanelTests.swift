import Testing
@testable import DashModel
@testable import DashView

/// A commitment customer (Examples/commitment.json): the plan panel says where they stand.
@Suite struct CommitmentPanelTests {
  @Test func thePlanPanelSaysWhichPaymentAndWhatThen() {
    let scenario = Scenarios.example("commitment")
    let wide = render(scenario.viewModel(), scenario.ui(), width: 150, height: 40)
    #expect(wide.textDump.contains("payment 4 of 12 · commitment ends 2027-02-01 · then renews monthly at 10.99 GBP"))
    assertSnapshot(wide, named: "commitment-150x40")
    assertSnapshot(render(scenario.viewModel(), scenario.ui(), width: 80, height: 24), named: "commitment-80x24")
  }
}
