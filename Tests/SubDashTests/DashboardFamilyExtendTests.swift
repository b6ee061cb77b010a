import DashModel
import DashView
import Foundation
import Testing

@testable import DashRuntime
import CoreValues
import SubscriberStorage

/// The dashboard's `e` key on a purchaser's file extends the linked family members in the same
/// directory (as `subdash extend` does), and the status line says how many followed.
@Suite struct DashboardFamilyExtendTests {
  static let examples = DemoStateTests.repoRoot.appendingPathComponent("Examples").path
  static let purchaser = "2000000871234560"

  /// Examples/active.json as the purchaser, Examples/family-shared.json as a member beside it.
  func family(linked: Bool) throws -> TempDir {
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

  func pressE(_ dir: TempDir) throws -> EffectOutcome {
    let session = try DashboardSession(path: dir.file("purchaser.json"), displayName: "purchaser.json", options: DisplayOptions(),
                                       nowOverride: nil, retryAccess: nil)
    return session.perform(.extendRenewalDate(days: 30, reason: .customerSatisfaction), wall: Instant(ms: 1_778_770_800_000))
  }

  @Test func theLinkedMemberFollowsAndTheStatusSaysSo() throws {
    let dir = try family(linked: true)
    guard case .succeeded(let status) = try pressE(dir) else { Issue.record("the extension was refused"); return }
    #expect(status.hasSuffix(" 1 family member followed."), "\(status)")
    let extended = try #require(try expires(dir, "purchaser.json"))
    #expect(try expires(dir, "member.json") == extended)
  }

  @Test func withNoLinkedMemberTheStatusSaysNoneWasFound() throws {
    let dir = try family(linked: false)
    let before = try expires(dir, "member.json")
    guard case .succeeded(let status) = try pressE(dir) else { Issue.record("the extension was refused"); return }
    #expect(status.hasSuffix(" No family member of \(Self.purchaser) found in this directory (a member's file names it as familyPurchaser)."), "\(status)")
    #expect(try expires(dir, "member.json") == before)
  }
}
