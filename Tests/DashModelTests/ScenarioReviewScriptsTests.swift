import Testing

@testable import DashModel
@testable import CoreValues

/// The user review's two scripts, run as written through the scenario runner (on disk, through
/// `StateFile.update`), so the scenario's `auto-renew on|off` path is covered end to end.
@Suite struct ScenarioReviewScriptsTests {
  @Test func autoRenewOnAfterDecliningDoesNotRenewAtTheOldPrice() throws {
    let (report, _) = try ScenarioTests.run("""
      catalog pass.storekit
      start 2026-05-01T00:00:00Z
      buy pass.premium.monthly no intro
      advance 3 days
      request price increase 12.99
      decline price increase
      auto-renew on
      expect last notification PRICE_INCREASE / PENDING
      expect price increase status 0
      expect renewal price 12.99
      advance to 2026-05-31T23:59:59.999Z
      expect status active
      advance to next event
      expect notification EXPIRED / PRICE_INCREASE
      expect clock 2026-06-01T00:00:00Z
      expect expiration intent 3
      expect price 9.99
      expect status expired
      """)
    #expect(report.expectations == 9)
  }

  @Test func autoRenewOffInGraceEndsAsCancelledAtTheGraceDate() throws {
    let (report, _) = try ScenarioTests.run("""
      catalog pass.storekit
      start 2026-01-01T00:00:00Z
      set grace 16d
      set outcomes fail
      buy pass.premium.monthly no intro
      advance to next event
      expect last notification DID_FAIL_TO_RENEW / GRACE_PERIOD
      auto-renew off
      expect notification DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED
      expect status grace
      advance to next event
      expect notification EXPIRED / VOLUNTARY
      expect clock 2026-02-17T00:00:00Z
      expect expiration intent 1
      expect status expired
      """)
    #expect(report.expectations == 7)
  }
}
