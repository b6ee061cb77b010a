import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage
@testable import SimulationRuns

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

  @Test func theScenarioReportsEachMembersNewRenewalDateAndCanExpectIt() throws {
    let family = FamilyExtensionTests()
    let dir = try family.family()
    var heard: [FamilyExtension.MemberOutcome] = []
    var runner = ScenarioRunner(scenario: try ScenarioParser.parse("extend 30\n", fileName: "family-extend"),
                                scriptDirectory: dir.path, statePath: dir.file("purchaser.json"))
    runner.onFamilyMember = { heard.append($0) }
    _ = try runner.run()
    let extended = try #require(try family.expires(dir, "purchaser.json"))
    #expect(heard.map(\.name) == ["member.json"] && heard.first?.renewalDate == extended)

    // The next run extends again, and its expectations name the member's new dates.
    let next = extended + Span.days(30)
    let script = "extend 30\nexpect member member.json renews \(next)\nexpect member member.json expires \(next)\n"
    let report = try ScenarioRunner(scenario: try ScenarioParser.parse(script, fileName: "family-expect"),
                                    scriptDirectory: dir.path, statePath: dir.file("purchaser.json")).run()
    #expect(report.expectations == 2)
  }

  @Test func aMemberExpectationThatDoesNotHoldSaysWhatTheMemberHas() throws {
    let dir = try FamilyExtensionTests().family()
    let script = "extend 30\nexpect member member.json renews 2020-01-01\n"
    #expect {
      try ScenarioRunner(scenario: try ScenarioParser.parse(script, fileName: "family-expect"), scriptDirectory: dir.path,
                         statePath: dir.file("purchaser.json")).run()
    } throws: { error in
      guard case .mismatch(_, 2, _, let expected, let actual) = error as? ScenarioFailure else { return false }
      return expected.hasPrefix("member member.json renews 2020-01-01") && actual.hasPrefix("renews 20")
    }
    #expect(throws: ScenarioSyntaxError.self) { try ScenarioParser.parse("expect member ../other.json renews 2026-01-01\n", fileName: "bad") }
    let missing = "expect member nobody.json renews 2026-01-01\n"
    #expect(throws: ScenarioFailure.self) {
      try ScenarioRunner(scenario: try ScenarioParser.parse(missing, fileName: "m"), scriptDirectory: dir.path, statePath: dir.file("purchaser.json")).run()
    }
  }

  @Test func anUnlinkedMemberIsLeftAlone() throws {
    let dir = try FamilyExtensionTests().family(linked: false)
    let before = dir.bytes("member.json")
    _ = try ScenarioRunner(scenario: try ScenarioParser.parse("extend 30\n", fileName: "family-extend"),
                           scriptDirectory: dir.path, statePath: dir.file("purchaser.json")).run()
    #expect(dir.bytes("member.json") == before)
  }
}
