import CoreValues
import DashModel
import SubscriberStorage
/// A scenario about a family purchaser can check the family members beside its state file, whose
/// renewal dates follow the purchaser's extension as Apple extends them (issue 21 §3):
///
///     expect member <file.json> renews <date>    the member's renewal date (renewal info)
///     expect member <file.json> expires <date>   the member's latest transaction's expiresDate
///
/// and `simulate --scenario` prints each member's new renewal date after an extension
/// (`ScenarioRunner.onFamilyMember`).
public enum MemberDate: String, Equatable, Sendable {
  case renews, expires
}

enum ScenarioFamilyMembers {
  static let usage = "expected expect member <file.json> renews <date> or expect member <file.json> expires <date>"

  static func expectation(_ l: ScenarioWords) throws(SimTextError) -> [Expectation] {
    guard l.count >= 4, let which = MemberDate(rawValue: l.keys[2]) else { throw SimTextError(usage) }
    let name = l.words[1]
    // A file beside the state file, never a path that leads elsewhere.
    guard name.hasSuffix(".json"), !name.contains("/"), !name.hasPrefix("."), name.count <= 255 else {
      throw SimTextError("expect member: \"\(LogText.clip(name))\" must be the file name of a state file beside the scenario's state file (NAME.json)")
    }
    return [.member(name, which, try ScenarioParser.date(l.rest(3)))]
  }
}

extension ScenarioRunner {
  /// `expect member NAME renews|expires DATE`: the member's file as it is on disk now.
  func checkMember(_ name: String, _ which: MemberDate, _ date: Instant) -> (expected: String, actual: String)? {
    let path = PathName.directory(of: store.path) + "/" + name
    let member: SubscriptionState
    do { member = try StateFile.load(path: path) } catch { return ("member \(name) \(which.rawValue) \(date)", "no such member (\(error.description))") }
    let actual = which == .renews ? member.subscriber.renewalInfo?.renewalDate : member.subscriber.latestTransaction?.expiresDate
    guard actual != date else { return nil }
    return ("member \(name) \(which.rawValue) \(date)", actual.map { "\(which.rawValue) \($0)" } ?? "no \(which == .renews ? "renewal date" : "expiresDate")")
  }
}
