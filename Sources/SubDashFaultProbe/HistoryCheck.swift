import DashModel
import CoreValues
import SubscriberStorage

/// Verifies a state file written by the real `subdash` (the simulator, the dashboard) against its
/// journal, for the fault tests whose histories hold purchases, renewals and immediate plan
/// changes. It cannot know which version the file should be, so it checks that the file is one
/// *complete* version: everything the document says about its history agrees with the committed
/// part of the journal, and that history is a chain a lost or doubled write would break.
enum HistoryCheck {
  /// What a checked file holds, for the callers' cross-checks between versions and writers.
  struct Facts {
    var transactions = 0
    var notifications = 0
    /// `simulation.now`, or nil when the file has no clock.
    var clock: Instant?
    /// RENEWAL transactions (each announced by a DID_RENEW).
    var renewals = 0
    /// Immediate plan changes (DID_CHANGE_RENEWAL_PREF / UPGRADE), each to the other product.
    var planChanges = 0
    /// Notification labels in order of first appearance, with their counts.
    var labels: [(label: String, count: Int)] = []
    /// Every notification's UUID and label, oldest first.
    var journalNotifications: [(uuid: String, label: String)] = []
    var committedBytes: Int64 = 0
    /// Journal bytes past `committedBytes`: a writer died between its append and its rename.
    var leftoverBytes: Int64 = 0
  }

  typealias Failure = ProbeState.CheckFailure

  /// Notifications that announce exactly one new transaction, and the reason it must carry.
  static let announcing: [String: TransactionReason] = [
    "SUBSCRIBED / INITIAL_BUY": .purchase,
    "SUBSCRIBED / RESUBSCRIBE": .purchase,
    "DID_RENEW": .renewal,
    "DID_CHANGE_RENEWAL_PREF / UPGRADE": .purchase,
  ]

  /// `2026-01-01 00:32:38 UTC`: the simulator moves seconds at a time, so minutes are too coarse.
  static func exact(_ i: Instant) -> String {
    let ms = Int64(i.ms.rounded(.down))
    let second = ((ms / 1000) % 60 + 60) % 60, fraction = (ms % 1000 + 1000) % 1000
    let text = String(Format.date(i).dropLast(4)) + ":" + (second < 10 ? "0" : "") + String(second)
    return text + (fraction == 0 ? "" : "." + String(String(fraction + 1000).dropFirst())) + " UTC"
  }

  static func verify(_ path: String) -> Result<Facts, Failure> {
    let state: SubscriptionState
    do { state = try StateFile.load(path: path) } catch { return .failure("does not load: \(error)") }
    var facts = Facts()
    if case .number(let n)? = state.document.simulation?["now"], let ms = Double(n) { facts.clock = Instant(ms: ms) }
    // A young subscriber's history is inline (`StateFile.inlineHistoryLimit`), in two lists put
    // back in the order they were written (`inlineEntriesInOrder`), then the journal's.
    let inline: [Journal.Entry]
    do { inline = try state.subscriber.inlineEntriesInOrder() } catch { return .failure("inline history: \(error)") }
    var entries: [Journal.Entry] = []
    if let journal = state.document.journal {
      let journalPath = PathName.directory(of: path) + "/" + journal.file
      do { entries = try Journal.readAll(path: journalPath, committedBytes: journal.committedBytes) } catch {
        return .failure("journal: \(error)")
      }
      facts.committedBytes = journal.committedBytes
      facts.leftoverBytes = FileStamp(path: journalPath).map { $0.size - journal.committedBytes } ?? 0
      if let failure = checkSummary(journal.summary, of: entries, &facts) { return .failure(failure) }
    } else if inline.isEmpty {
      return state.subscriber.latestTransaction == nil ? .success(facts) : .failure("a subscriber without history")
    }
    facts.transactions += state.subscriber.transactions.count
    facts.notifications += state.subscriber.notifications.count
    var chain = Chain(base: 0)
    for (i, entry) in inline.enumerated() {
      if let failure = chain.add(entry, at: "inline entry \(i + 1)", &facts) { return .failure(failure) }
    }
    for (i, entry) in entries.enumerated() {
      if let failure = chain.add(entry, at: "journal entry \(i + 1)", &facts) { return .failure(failure) }
    }
    if let failure = chain.end() { return .failure(failure) }
    if let failure = checkLatest(state, chain, facts) { return .failure(failure) }
    return .success(facts)
  }

  /// 1. The document's summary is the fold of exactly the committed entries.
  private static func checkSummary(_ recorded: HistorySummary, of entries: [Journal.Entry], _ facts: inout Facts) -> Failure? {
    var summary = HistorySummary()
    for case .transaction(let t) in entries { summary.add(t) }
    summary.notificationCount = entries.count - summary.transactionCount
    guard summary == recorded else {
      return "journal.summary (\(recorded.transactionCount) transactions, \(recorded.notificationCount) notifications) is not the fold of the \(summary.transactionCount) + \(summary.notificationCount) committed entries"
    }
    facts.transactions = summary.transactionCount
    facts.notifications = summary.notificationCount
    return nil
  }

  /// 2. The chain: transaction ids are numbered by position (no gap, no duplicate); a plan change
  ///    re-records the previous transaction (isUpgraded) right before the new one; a renewal starts
  ///    where the previous period ended; every new transaction is announced by one notification of
  ///    the right kind before the next one appears; a plan change switches product.
  private struct Chain {
    let base: Int
    /// The latest new (not re-recorded) transaction, and its predecessor's product (for plan changes).
    var previous: TransactionPayload?
    var productBefore: String?
    var unannounced: TransactionPayload?
    var pendingUpgradeCopy = false
    var seenUUIDs = Set<String>()
    var lastSigned: Instant?
    var labelIndex: [String: Int] = [:]
    var transactions = 0

    init(base: Int) { self.base = base }

    mutating func add(_ entry: Journal.Entry, at: String, _ facts: inout Facts) -> Failure? {
      switch entry {
      case .transaction(let t): return transaction(t, at: at)
      case .notification(let n): return notification(n, at: at, &facts)
      }
    }

    private mutating func transaction(_ t: TransactionPayload, at: String) -> Failure? {
      let sequence = base + transactions
      transactions += 1
      if t.isUpgraded == true {
        guard let p = previous, t.transactionId == p.transactionId, !pendingUpgradeCopy else {
          return "\(at): a re-recorded (isUpgraded) transaction \(t.transactionId ?? "?") that is not the latest one"
        }
        pendingUpgradeCopy = true
        return nil
      }
      guard t.transactionId == Identifiers.transactionId(sequence: sequence) else {
        return "\(at): transaction id \(t.transactionId ?? "none") where the chain needs \(Identifiers.transactionId(sequence: sequence)) (a gap or a duplicate)"
      }
      if let u = unannounced { return "\(at): transaction \(u.transactionId ?? "?") was never announced by a notification" }
      if let p = previous {
        if t.transactionReason == .renewal {
          guard !pendingUpgradeCopy, t.purchaseDate == p.expiresDate else {
            return "\(at): renewal \(t.transactionId ?? "?") starts at \(t.purchaseDate.map(exact) ?? "?"), not where the previous period ended (\(p.expiresDate.map(exact) ?? "?"))"
          }
        } else if pendingUpgradeCopy {
          guard let start = t.purchaseDate, let ps = p.purchaseDate, let pe = p.expiresDate, start >= ps, start <= pe else {
            return "\(at): plan change \(t.transactionId ?? "?") outside the period it replaces"
          }
        }
      }
      pendingUpgradeCopy = false
      productBefore = previous?.productId
      previous = t
      unannounced = t
      return nil
    }

    private mutating func notification(_ n: NotificationRecord, at: String, _ facts: inout Facts) -> Failure? {
      guard let uuid = n.notificationUUID, seenUUIDs.insert(uuid).inserted else {
        return "\(at): notification \(n.label) with a missing or repeated notificationUUID \(n.notificationUUID ?? "")"
      }
      if let s = n.signedDate {
        if let l = lastSigned, s < l { return "\(at): \(n.label) signed at \(exact(s)), before the one above (\(exact(l))): the clock went back" }
        lastSigned = s
      }
      guard let reason = announcing[n.label] else { return "\(at): unexpected notification \(n.label)" }
      guard let t = unannounced, t.transactionReason == reason, n.productId == t.productId else {
        return "\(at): \(n.label) (\(n.productId ?? "?")) does not announce the transaction before it"
      }
      if n.label == "DID_CHANGE_RENEWAL_PREF / UPGRADE" {
        guard productBefore != nil, productBefore != t.productId else {
          return "\(at): plan change to \(t.productId ?? "?") from the same product (an action applied twice or lost)"
        }
        facts.planChanges += 1
      }
      if reason == .renewal { facts.renewals += 1 }
      unannounced = nil
      facts.journalNotifications.append((uuid, n.label))
      if let j = labelIndex[n.label] { facts.labels[j].count += 1 } else {
        labelIndex[n.label] = facts.labels.count
        facts.labels.append((n.label, 1))
      }
      return nil
    }

    /// What the whole journal must not end on.
    func end() -> Failure? {
      if let u = unannounced { return "transaction \(u.transactionId ?? "?") was never announced by a notification" }
      if pendingUpgradeCopy { return "the journal ends with a re-recorded transaction and no plan change" }
      return nil
    }
  }

  /// 3. The document's current transaction is the journal's latest; its clock is not behind it.
  private static func checkLatest(_ state: SubscriptionState, _ chain: Chain, _ facts: Facts) -> Failure? {
    guard let last = chain.previous else { return nil }
    guard state.subscriber.latestTransaction?.json == last.json else {
      return "latestTransaction \(state.subscriber.latestTransaction?.transactionId ?? "none") is not the journal's latest transaction \(last.transactionId ?? "?")"
    }
    if let clock = facts.clock {
      if let p = last.purchaseDate, clock < p { return "simulation.now \(exact(clock)) is before the latest purchase \(exact(p))" }
      if let l = chain.lastSigned, clock < l { return "simulation.now \(exact(clock)) is before the latest notification \(exact(l))" }
    }
    return nil
  }
}
