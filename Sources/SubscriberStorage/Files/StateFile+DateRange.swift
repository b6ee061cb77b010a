import CoreValues
import DashModel
/// Never write a file that could not be read back: the loader refuses dates outside
/// `Instant.fileRange`, so a change that would write one (a simulation run up to year 3000, a
/// renewal whose period ends after it) is refused before the journal or the document is touched.
extension StateFile {
  static func checkDates(_ change: Change, path: String) throws(StateFileError) {
    let sub = change.state.subscriber
    var dates: [(String, Instant?)] = []
    func add(_ t: TransactionPayload?, _ at: String) {
      guard let t else { return }
      dates += [("\(at).purchaseDate", t.purchaseDate), ("\(at).expiresDate", t.expiresDate),
                ("\(at).signedDate", t.signedDate), ("\(at).revocationDate", t.revocationDate)]
    }
    add(sub.latestTransaction, "$.subscriber.latestTransaction")
    for t in change.transactions { add(t, "a new transaction") }
    if let r = sub.renewalInfo {
      let at = "$.subscriber.renewalInfo"
      dates += [("\(at).renewalDate", r.renewalDate), ("\(at).gracePeriodExpiresDate", r.gracePeriodExpiresDate),
                ("\(at).signedDate", r.signedDate), ("\(at).recentSubscriptionStartDate", r.recentSubscriptionStartDate)]
    }
    if case .number(let n)? = change.state.document.simulation?["now"], let ms = Double(n), ms.isFinite {
      dates.append(("$.simulation.now", Instant(ms: ms)))
    }
    for n in change.notifications { dates.append(("a new notification's signedDate", n.signedDate)) }
    for (what, date) in dates {
      guard let date, !Instant.fileRange.contains(date) else { continue }
      throw StateFileError(file: path, message: "not saved: \(what) would be \(Format.date(date)), outside years 1900–3000, which no state file can hold")
    }
  }
}
