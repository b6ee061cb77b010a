import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView

/// The list's fast paths (one search buffer and bit masks for the filter, extracted keys for the
/// sort) must answer exactly what the filter's and the sort's own rules say, before and after
/// live changes.
@Suite struct ListSearchTests {
  /// The rows the filter's rules keep, in the state's current order, row by row.
  func byTheRules(_ s: ListState, _ text: String) -> [String] {
    var all = s
    all.setFilter("")
    let filter = ListFilter(text)
    return all.visible.map { all.rows[$0] }.filter { filter.matches($0, haystack: $0.searchText) }.map(\.file)
  }

  @Test(arguments: ["status:gr", "status:active status:grace", "status:zzz", "flag:ref", "flag:price product:prem",
                    "product:family", "2000000", "GRACE", "broken", "flag:", "s:ex 20000008", "1 2", "premium…"])
  func theScanKeepsWhatTheRulesKeep(text: String) {
    var s = ListFixture.state()
    s.setFilter(text)
    #expect(ListFixture.files(s) == byTheRules(s, text))
  }

  @Test func afterLiveChangesTheScanStillAgreesWithTheRules() {
    var s = ListFixture.state()
    s.setFilter("status:grace")  // the search buffer now exists and must follow the changes
    var changed = ListFixture.row("active")
    changed.status = .grace
    changed.originalTransactionId = "9990000000000001"
    var added = ListFixture.row("refunded")
    added.file = "zz-added.json"
    s.apply(upserts: [changed, added], removed: ["billing-retry.json"], at: ListFixture.wall)
    for text in ["status:grace", "999000", "zz-added", "flag:refunded", "billing", "product:prem"] {
      s.setFilter(text)
      #expect(ListFixture.files(s) == byTheRules(s, text), "\(text)")
    }
    #expect(s.counts[.grace] == ListFixture.rows.filter { $0.status == .grace }.count + 1)
  }

  @Test func countsKeptOnChangesEqualCountingAgain() {
    var s = ListFixture.state()
    var changed = ListFixture.row("grace-period")
    changed.status = .expired
    s.apply(upserts: [changed], removed: ["active.json", "refunded.json"], at: ListFixture.wall)
    var recount: [ListStatus: Int] = [:]
    for r in s.rows { recount[r.status, default: 0] += 1 }
    for status in ListStatus.allCases { #expect((s.counts[status] ?? 0) == (recount[status] ?? 0), "\(status)") }
  }

  @Test(arguments: ListColumn.allCases)
  func sortingOnKeysGivesTheSortsOwnOrder(column: ListColumn) {
    for descending in [false, true] {
      let sort = ListSort(column, descending: descending)
      var s = ListFixture.state()
      s.setSort(sort)
      #expect(ListFixture.files(s) == ListFixture.rows.sorted(by: sort.before).map(\.file), "\(column) descending \(descending)")
    }
  }

  /// A filter given whole (`subdash list --filter`) that names no status or flag is said, not
  /// answered with an empty list; a prefix of a real one, or plain text, is fine.
  @Test func aFilterNamingNoStatusOrFlagIsSaid() {
    #expect(ListFilter.problem(in: "status:nonsense")?.hasPrefix("status:nonsense names no status (active, grace") == true)
    #expect(ListFilter.problem(in: "premium flag:zz")?.hasPrefix("flag:zz names no flag (grace, billing-retry") == true)
    #expect(ListFilter.problem(in: "status:gr flag:ref product:premium 2000000") == nil)
    #expect(ListFilter.problem(in: "") == nil)
  }
}
