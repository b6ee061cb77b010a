import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// Apple: "Extending a Family Sharing purchase extends the family members automatically." A
/// member's file names its purchaser (`familyPurchaser`); every extension of the purchaser moves
/// the member's dates too, through the subscriber store.
@Suite("Family members follow the purchaser's extension")
struct FamilyExtensionTests {
  static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Examples").path
  static let purchaser = "2000000871234560"
  static let clock = Instant(ms: 1_778_770_800_000)

  /// Examples/active.json (the purchaser of Family Pass) and Examples/family-shared.json (a member
  /// of the same group), the member linked to the purchaser unless `linked` is false.
  func family(linked: Bool = true) throws -> TempDir {
    let dir = TempDir()
    dir.write("purchaser.json", try String(contentsOfFile: Self.examples + "/active.json", encoding: .utf8))
    var member = try String(contentsOfFile: Self.examples + "/family-shared.json", encoding: .utf8)
    if linked {
      member = member.replacingOccurrences(of: "\"format\": \"subdash-state/1\",", with: "\"format\": \"subdash-state/1\", \"familyPurchaser\": \"\(Self.purchaser)\",")
    }
    dir.write("member.json", member)
    return dir
  }

  func expires(_ dir: TempDir, _ name: String) throws -> Instant? {
    try StateFile.load(path: dir.file(name)).subscriber.latestTransaction?.expiresDate
  }

  @Test func extendingThePurchaserMovesTheLinkedMembersDatesWithRenewalExtended() throws {
    let dir = try family()
    let (store, name) = DirectorySubscriberStore.holding(dir.file("purchaser.json"))
    let result = store.update(existing: name, wait: .bounded) { (current) throws(ActionError) -> SubscriberEdit in
      .save(try Actions.apply(.extendRenewalDate(days: 30, reason: .customerSatisfaction), to: current, at: Self.clock).get())
    }
    let change = try #require(result.change)
    let members = FamilyExtension.extendMembers(after: change, in: store, skipping: name, wall: Self.clock)
    #expect(members.map(\.name) == ["member.json"] && members.first?.message != nil)
    let extended = try #require(try expires(dir, "purchaser.json"))
    let member = try StateFile.load(path: dir.file("member.json"))
    #expect(member.subscriber.latestTransaction?.expiresDate == extended)
    #expect(member.subscriber.renewalInfo?.renewalDate == extended)
    #expect(member.subscriber.latestTransaction?.inAppOwnershipType == .familyShared)
    let last = try StateFile.recentNotifications(member, statePath: dir.file("member.json"), limit: 1).last
    #expect(last?.notificationType == .renewalExtended)
  }

  @Test func aMassExtensionExtendsTheMemberWithThePurchaserAndLeavesItOutOfTheCounts() throws {
    let dir = try family()
    let memberOutcome = MassExtension.apply(toFile: dir.file("member.json"), days: 14, reason: .customerSatisfaction, wall: Self.clock)
    guard case .leftOut(let why) = memberOutcome else {
      Issue.record("the member was counted on its own: \(memberOutcome)")
      return
    }
    #expect(why.contains("family member"))
    let outcome = MassExtension.apply(toFile: dir.file("purchaser.json"), days: 14, reason: .customerSatisfaction, wall: Self.clock)
    guard case .extended(let change) = outcome else {
      Issue.record("the purchaser was not extended: \(outcome)")
      return
    }
    #expect(change.message.contains("family member member.json"))
    #expect(try expires(dir, "member.json") == (try expires(dir, "purchaser.json")))
  }

  @Test func anUnlinkedFamilyShareIsNotTouchedAndAMemberStillCannotBeExtendedDirectly() throws {
    let dir = try family(linked: false)
    let before = dir.bytes("member.json")
    let (store, name) = DirectorySubscriberStore.holding(dir.file("purchaser.json"))
    let result = store.update(existing: name, wait: .bounded) { (current) throws(ActionError) -> SubscriberEdit in
      .save(try Actions.apply(.extendRenewalDate(days: 30, reason: .customerSatisfaction), to: current, at: Self.clock).get())
    }
    #expect(FamilyExtension.extendMembers(after: try #require(result.change), in: store, skipping: name, wall: Self.clock).isEmpty)
    #expect(dir.bytes("member.json") == before)
    // Apple's rule stands for the member itself: FamilySharedSubscriptionExtensionIneligibleError.
    let member = try StateFile.load(path: dir.file("member.json"))
    guard case .failure(.extensionRefused(let r)) = Actions.apply(.extendRenewalDate(days: 7, reason: .customerSatisfaction), to: member, at: Self.clock) else {
      Issue.record("a member was extended directly")
      return
    }
    #expect(r.errorCode == 4_030_007)
  }

  @Test func aMemberWhoseAccessEndedOrWhoIsNotTheirsDoesNotFollow() throws {
    let dir = try family()
    let member = try StateFile.load(path: dir.file("member.json"))
    let later = Instant(ms: 1_790_000_000_000)
    // Another purchaser's extension, an expiry earlier than the member's, and a member whose access expired.
    #expect(throws: ActionError.self) { try FamilyExtension.follow(member, purchaser: "999", expires: later, group: nil, at: Self.clock).get() }
    #expect(throws: ActionError.self) {
      try FamilyExtension.follow(member, purchaser: Self.purchaser, expires: Instant(ms: 1_779_000_000_000), group: nil, at: Self.clock).get()
    }
    #expect(throws: ActionError.self) {
      try FamilyExtension.follow(member, purchaser: Self.purchaser, expires: later, group: nil, at: Instant(ms: 1_785_000_000_000)).get()
    }
    #expect(throws: ActionError.self) {
      try FamilyExtension.follow(member, purchaser: Self.purchaser, expires: later, group: "another-group", at: Self.clock).get()
    }
    let followed = try FamilyExtension.follow(member, purchaser: Self.purchaser, expires: later, group: "6F3A93AB", at: Self.clock).get()
    #expect(followed.state.subscriber.latestTransaction?.expiresDate == later)
  }
}
