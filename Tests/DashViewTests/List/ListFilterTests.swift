import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView

/// A support person types into the filter; each word narrows the list.
@Suite struct ListFilterTests {
  func filtered(_ text: String) -> [String] {
    var s = ListFixture.state()
    s.setFilter(text)
    return ListFixture.files(s)
  }

  @Test func statusWordsMatchByPrefix() {
    #expect(Set(filtered("status:grace")) == ["contradictory.json", "grace-period.json"])
    #expect(filtered("status:gra") == filtered("status:grace"))
    #expect(filtered("status:revoked") == ["refunded.json"])
    #expect(filtered("status:error") == ["broken.json"])
  }

  @Test func productMatchesIdOrNameAndCombinesWithStatus() {
    let family = filtered("product:family")
    #expect(family.contains("family-shared.json"))
    #expect(!family.contains("refunded.json"))  // Premium (Annual)
    #expect(Set(filtered("status:grace product:family")) == ["contradictory.json", "grace-period.json"])
    #expect(filtered("status:grace product:individual").isEmpty)
  }

  @Test func anIdPastedFromTheScreenWithItsEllipsis() {
    #expect(filtered("200000082091…") == ["grace-period.json"])
    #expect(filtered("200000082091...") == ["grace-period.json"])
  }

  @Test func tokensOrderIdsAndCaseDoNotMatter() throws {
    #expect(filtered("C0B8E2D4") == ["refunded.json"])
    let refunded = ListFixture.row("refunded")
    let orderId = try #require(refunded.otherIds.last)
    #expect(filtered(orderId).contains("refunded.json"))
  }

  @Test func flagsByName() {
    #expect(filtered("flag:refunded") == ["refunded.json"])
    #expect(filtered("flag:price") == ["price-increase.json"])
  }

  @Test func anEmptyFilterShowsEveryone() {
    #expect(filtered("   ").count == ListFixture.rows.count)
  }
}
