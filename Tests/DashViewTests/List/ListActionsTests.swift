import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView

/// The list is updated the one way the dashboard is: what happened goes to the reducer, and what
/// must be read comes back as an effect.
@Suite struct ListActionsTests {
  @Test func theClockPassingARowsMomentAsksForItsFileAgain() throws {
    var row = ListFixture.row("auto-renew-off")
    row.simulatedNow = nil
    let at = try #require(row.changesAt)
    var s = ListFixture.state([row])
    #expect(ListReducer.reduce(&s, .ticked(at - .millisecond), pageRows: 10).isEmpty)
    #expect(ListReducer.reduce(&s, .ticked(at), pageRows: 10) == [.reread(files: ["auto-renew-off.json"])])
  }

  @Test func changedRowsAndNoticesArriveAsActions() {
    var s = ListFixture.state()
    var changed = ListFixture.row("active")
    changed.status = .revoked
    #expect(ListReducer.reduce(&s, .rowsChanged(upserts: [changed], removed: ["refunded.json"], at: ListFixture.wall), pageRows: 10).isEmpty)
    #expect(s.row("active.json")?.status == .revoked)
    #expect(s.isHighlighted("active.json"))
    #expect(s.row("refunded.json") == nil)
    _ = ListReducer.reduce(&s, .noticed("the index could not be used"), pageRows: 10)
    #expect(s.message == "the index could not be used")
    _ = ListReducer.reduce(&s, .keyPressed(.down), pageRows: 10)
    #expect(s.message == nil, "a key clears the notice")
  }
}
