import Foundation
import Testing

@testable import DashModel

/// A scenario's `extend` step of a purchaser moves the linked family members in the state file's
/// directory, as `subdash extend` does.
@Suite("A scenario's extend step extends the purchaser's family too")
struct FamilyExtensionScenarioTests {
  @Test func theMemberBesideTheScenariosFileFollowsItsExtension() throws {
    let family = FamilyExtensionTests()
    let dir = try family.family()
    let before = try #require(try family.expires(dir, "member.json"))
    let scenario = try ScenarioParser.parse("extend 30\n", fileName: "family-extend")
    _ = try ScenarioRunner(scenario: scenario, scriptDirectory: dir.path, statePath: dir.file("purchaser.json")).run()
    let extended = try #require(try family.expires(dir, "purchaser.json"))
    #expect(try family.expires(dir, "member.json") == extended)
    #expect(extended > before)
    let member = try StateFile.load(path: dir.file("member.json"))
    #expect(member.subscriber.renewalInfo?.renewalDate == extended)
  }

  @Test func anUnlinkedMemberIsLeftAlone() throws {
    let dir = try FamilyExtensionTests().family(linked: false)
    let before = dir.bytes("member.json")
    _ = try ScenarioRunner(scenario: try ScenarioParser.parse("extend 30\n", fileName: "family-extend"),
                           scriptDirectory: dir.path, statePath: dir.file("purchaser.json")).run()
    #expect(dir.bytes("member.json") == before)
  }
}
