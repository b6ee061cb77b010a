#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DashModel
import CoreValues

/// Who wrote what, for the concurrency test: `subdash simulate --jsonl` printed every notification
/// it committed, and the dashboard's only writes are plan changes. The journal must hold each of
/// the simulator's notifications exactly once and in its order, every plan change the dashboard
/// confirmed, and nothing else but the purchase the file started with.
enum WriterAccounting {
  typealias Failure = ProbeState.CheckFailure

  static let planChange = "DID_CHANGE_RENEWAL_PREF / UPGRADE"
  static let startingPurchase = "SUBSCRIBED / INITIAL_BUY"

  /// `simulatorOutput`: the simulator's `--jsonl` lines. `planChanges`: the actions the dashboard
  /// confirmed on screen. Returns a one-line account.
  static func check(_ path: String, simulatorOutput: String?, planChanges: Int?) -> Result<String, Failure> {
    let facts: HistoryCheck.Facts
    switch HistoryCheck.verify(path) {
    case .failure(let why): return .failure(why)
    case .success(let f): facts = f
    }
    var account = "\(facts.transactions) transactions, \(facts.notifications) notifications, clock \(facts.clock.map(HistoryCheck.exact) ?? "unset"); "
      + facts.labels.map { "\($0.label) \($0.count)" }.joined(separator: ", ")
    if let planChanges {
      guard facts.planChanges == planChanges else {
        return .failure("\(facts.planChanges) plan changes in the journal, but the dashboard confirmed \(planChanges)")
      }
      // How interleaved the two writers were: plan changes with a simulator renewal just before them.
      var afterSimulator = 0, previous = ""
      for n in facts.journalNotifications {
        if n.label == planChange && previous == "DID_RENEW" { afterSimulator += 1 }
        previous = n.label
      }
      account += "; \(planChanges) plan changes, as confirmed, alternating, \(afterSimulator) of them right after a simulator renewal"
    }
    guard let simulatorOutput else { return .success(account) }
    let printed: [NotificationRecord]
    switch readNotifications(simulatorOutput) {
    case .failure(let why): return .failure(why)
    case .success(let n): printed = n
    }
    // Walk the journal once: the simulator's notifications must come up in the order it printed them.
    var next = 0
    var labels: [String: String] = [:]
    for n in printed { if let u = n.notificationUUID { labels[u] = n.label } }
    for (i, n) in facts.journalNotifications.enumerated() {
      if next < printed.count, n.uuid == printed[next].notificationUUID {
        next += 1
      } else if let label = labels[n.uuid] {
        return .failure("the simulator's \(label) \(n.uuid) is out of the order it was printed in")
      } else if !(n.label == planChange || (i == 0 && n.label == startingPurchase)) {
        return .failure("\(n.label) \(n.uuid) in the journal was printed by no simulator and is no plan change")
      }
    }
    guard next == printed.count else {
      let missing = printed[next]
      return .failure("the simulator printed \(printed.count) notifications; \(missing.label) \(missing.notificationUUID ?? "?") (number \(next + 1)) is not in the journal: a lost update")
    }
    if let simulatorPlanChanges = printed.first(where: { $0.label == planChange }) {
      return .failure("the simulator printed a plan change \(simulatorPlanChanges.notificationUUID ?? "?")")
    }
    return .success(account + "; all \(printed.count) notifications the simulator printed are in the journal once, in order")
  }

  /// One notification object per line (`subdash simulate --jsonl`).
  static func readNotifications(_ file: String) -> Result<[NotificationRecord], Failure> {
    guard let f = fopen(file, "r") else { return .failure("cannot open \(file)") }
    defer { fclose(f) }
    var out: [NotificationRecord] = []
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    var number = 0
    while getline(&line, &capacity, f) > 0 {
      number += 1
      let bytes = Array(UnsafeRawBufferPointer(start: line, count: strlen(line!)).filter { $0 != 0x0A })
      do {
        out.append(try NotificationRecord(ObjectReader(JSONParser.parse(bytes), at: .root)))
      } catch {
        return .failure("\(file):\(number): not a notification object: \(error)")
      }
    }
    return .success(out)
  }
}
