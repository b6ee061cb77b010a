import DashModel
import DashRuntime
import DashView
import CoreValues

/// How `subdash simulate` prints notifications: one aligned line each for people, or one JSON
/// object per line (`--jsonl`) for machines. Text from the file goes through the Sanitizer, so
/// a product id with escape sequences cannot drive the terminal.
struct SimulateOutput {
  var jsonl: Bool

  /// `2026-12-22 03:42:00  DID_FAIL_TO_RENEW / GRACE_PERIOD  status=4  pass.premium.monthly  summary`
  /// (UTC, with seconds: at fast rates many renewals fall in one minute).
  static func line(_ n: NotificationRecord) -> String {
    let when = n.signedDate.map { Format.dateShort($0, seconds: true, year: true) } ?? "-------------------"
    let label = Sanitizer.clean(n.label)
    let padded = label + String(repeating: " ", count: max(2, 36 - label.count))
    let status = n.status.map { "status=\($0.rawValue)" } ?? "status=-"
    let product = Sanitizer.clean(n.productId ?? "-")
    var text = "\(when)  \(padded)\(status)  \(product)"
    if let s = n.summary { text += "  " + Sanitizer.clean(s) }
    return text
  }

  func print(_ n: NotificationRecord) {
    if jsonl {
      LineOut.stdout(String(decoding: JSONWriter.write(n.json, pretty: false), as: UTF8.self))
    } else {
      LineOut.stdout(Self.line(n))
    }
  }

  func print(_ changes: [Change]) {
    for c in changes { for n in c.notifications { print(n) } }
  }

  /// One summary for a population run: how many, what happened, and the rate of simulated time.
  func population(_ s: SimulatePopulation.Summary, directory: String, seconds: Double) {
    if s.created > 0 { LineOut.stdout("created \(counted(s.created, "subscriber")) in \(directory)") }
    for (label, n) in s.notifications.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
      LineOut.stdout("  \(label): \(n)")
    }
    for f in s.failures.prefix(10) { LineOut.stderr("subdash: \(f)") }
    if !s.cancelPages.isEmpty {
      let fromServer = s.cancelPages.filter { $0.outcome?.offer?.source == .realtime }.count
      let defaults = s.cancelPages.filter { $0.outcome?.offer?.source == .defaultMessage }.count
      let sent = s.cancelPages.filter { $0.outcome?.requestIdentifier != nil }.count
      LineOut.stdout("  cancel pages: \(s.cancelPages.count) (\(counted(sent, "realtime request")) sent; \(fromServer) chosen by the developer's server, "
        + "\(defaults) default message, \(s.cancelPages.count - fromServer - defaults) none)")
      // What the members chose there (RetentionDraw: the mix's retentionAccept and retentionKeep).
      let took = s.cancelPages.filter { $0.choice == .accept }.count
      let kept = s.cancelPages.filter { $0.choice == .keep }.count
      LineOut.stdout("  on the cancel page: \(took) took the offer, \(kept) kept the subscription, \(s.cancelPages.count - took - kept) cancelled")
      for p in s.cancelPages.compactMap(\.problem).prefix(3) { LineOut.stderr("subdash: cancel page: \(p)") }
      for page in s.cancelPages.filter({ $0.acceptRefused != nil }).prefix(3) {
        LineOut.stderr("subdash: cancel page: \(page.name): taking the offer was refused (\(page.acceptRefused ?? "")); cancelled")
      }
    }
    if s.skipped > 0 { LineOut.stdout("  (\(counted(s.skipped, "mix event")) skipped: the subscriber's state did not allow it then)") }
    let rate = seconds > 0 ? Int((s.subscriberMonths / seconds).rounded()) : 0
    LineOut.stdout("\(counted(s.subscribers, "subscriber")) advanced; \(Int(s.subscriberMonths)) subscriber-months in \(String(format3(seconds))) s (\(rate) subscriber-months/s)")
  }

  private func format3(_ x: Double) -> String {
    let ms = Int((x * 1000).rounded())
    return "\(ms / 1000).\(String(repeating: "0", count: 3 - String(ms % 1000).count))\(ms % 1000)"
  }
}
