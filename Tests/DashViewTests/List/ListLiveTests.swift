import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues

/// The directory changes under the list: rows update in place, new ones appear, all highlighted.
@Suite struct ListLiveTests {
  @Test func aChangedRowIsReplacedAndHighlightedAndTheSelectionStays() {
    var s = ListFixture.state()
    s.select(visibleIndex: 3)
    let selected = s.selectedRow!.file
    var changed = ListFixture.row("active")
    changed.flags = [.refunded]
    changed.status = .revoked
    s.apply(upserts: [changed, ListFixture.row("grace-period")], removed: [], at: ListFixture.wall)
    #expect(s.row("active.json")?.status == .revoked)
    #expect(s.isHighlighted("active.json"))
    #expect(!s.isHighlighted("grace-period.json"))  // same summary: not a change
    #expect(s.selectedRow?.file == selected)
    // The highlight fades after its span, to the millisecond.
    #expect(s.pruneHighlights(at: ListFixture.wall + ListState.highlightSpan - .millisecond) != nil)
    #expect(s.isHighlighted("active.json"))
    #expect(s.pruneHighlights(at: ListFixture.wall + ListState.highlightSpan) == nil)
    #expect(!s.isHighlighted("active.json"))
  }

  @Test func newFilesAppearInSortOrderAndGoneFilesDisappear() {
    var s = ListFixture.state()
    s.setSort(ListSort(.due))
    var new = ListFixture.row("active")
    new.file = "zz-new.json"
    new.originalTransactionId = "1"
    s.apply(upserts: [new], removed: ["refunded.json"], at: ListFixture.wall)
    #expect(s.row("refunded.json") == nil)
    #expect(s.isHighlighted("zz-new.json"))
    // The incremental placement agrees with sorting everything again.
    var fresh = ListFixture.state(s.rows)
    fresh.setSort(ListSort(.due))
    #expect(ListFixture.files(s) == ListFixture.files(fresh))
  }

  @Test func aChangeMovesTheRowToItsNewPlace() {
    var s = ListFixture.state()
    s.setSort(ListSort(.status))
    var changed = ListFixture.row("active")
    changed.status = .expired
    s.apply(upserts: [changed], removed: [], at: ListFixture.wall)
    var fresh = ListFixture.state(s.rows)
    fresh.setSort(ListSort(.status))
    #expect(ListFixture.files(s) == ListFixture.files(fresh))
  }

  @Test func theFilterAppliesToRowsThatArriveLater() {
    var s = ListFixture.state()
    s.setFilter("status:revoked")
    var changed = ListFixture.row("active")
    changed.status = .revoked
    s.apply(upserts: [changed], removed: [], at: ListFixture.wall)
    #expect(ListFixture.files(s) == ["refunded.json", "active.json"])
  }
}

/// Rows on the wall clock are derived again when their moment of change passes (±1 ms).
@Suite struct ListTimeTests {
  @Test func aRowIsDueAtItsMomentOfChangeNotBefore() throws {
    var row = ListFixture.row("auto-renew-off")
    row.simulatedNow = nil
    let at = try #require(row.changesAt)
    let s = ListFixture.state([row])
    #expect(s.rowsDue(at: at - .millisecond).files.isEmpty)
    #expect(s.rowsDue(at: at - .millisecond).next == at)
    #expect(s.rowsDue(at: at).files == ["auto-renew-off.json"])
  }

  @Test func aSimulatedClockMovesOnlyWithItsFile() {
    let row = ListFixture.row("auto-renew-off")
    #expect(ListFixture.state([row]).rowsDue(at: Instant(ms: 9e15)).files.isEmpty)
  }
}
