import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues

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

/// Apple's own sample payload (app-store-server-library's signedTransaction.json carries
/// billingPlanType MONTHLY and commitmentInfo) imported as a support person would.
@Suite struct CommitmentImportTests {
  @Test func applesSampleTransactionShowsItsCommitment() throws {
    let t = ImportRenderTests()
    let state = try t.imported("appstore/signedTransaction.json")
    #expect(state.subscriber.latestTransaction?.commitmentInfo?.billingPeriodNumber == 3)
    let report = Lifecycle.derive(state, at: Instant(ms: 1_698_000_000_000))
    // 1698150000000 ms is 2023-10-24 12:20 UTC.
    #expect(report.commitment?.text(currentProductId: report.product?.productID) { $0 } == "payment 3 of 12 · commitment ends 2023-10-24")
  }
}
