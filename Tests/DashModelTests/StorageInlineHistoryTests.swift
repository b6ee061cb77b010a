import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// A young subscriber's history lives inline in its document, so a new subscriber is one new file;
/// the save that would take it past `StateFile.inlineHistoryLimit` entries starts the journal, and
/// every reader reads the inline entries first, then the journal's.
@Suite("Storage: a young subscriber's history is inline, then journaled")
struct StorageInlineHistoryTests {
  static let limit = StateFile.inlineHistoryLimit

  /// Renewal `k` of one subscription, a month apart.
  static func renewal(_ k: Int) -> TransactionPayload {
    var t = TransactionPayload()
    t.originalTransactionId = "7000"
    t.transactionId = String(7000 + k)
    t.productId = "pro.monthly"
    t.purchaseDate = Instant(ms: 1_767_225_600_000 + Double(k) * 2_592_000_000)
    t.expiresDate = Instant(ms: 1_767_225_600_000 + Double(k + 1) * 2_592_000_000)
    t.environment = .sandbox
    return t
  }

  static func didRenew(_ k: Int) -> NotificationRecord {
    NotificationRecord(type: .didRenew, uuid: "renew-\(k)", signedDate: renewal(k).purchaseDate, status: .active, summary: "renewal \(k)")
  }

  /// One save: renewal `k` and its DID_RENEW (two entries), as the simulator and a receiver write them.
  static func renew(_ path: String, _ k: Int) throws {
    try StateFile.update(path: path) { (state) throws(StateFileError) -> Change in
      var s = state
      s.document.subscriber.latestTransaction = renewal(k)
      return Change(state: s, transactions: [renewal(k)], notifications: [didRenew(k)], message: "renewal \(k)")
    }
  }

  static func fresh(_ dir: TempDir, deliveries: Bool = false) -> String {
    let book = deliveries ? #", "deliveries": { "url": "http://127.0.0.1:9/", "journalOffset": 0, "retrySchedule": "production" }"# : ""
    return dir.write("young.json", #"{ "format": "subdash-state/1", "catalog": { "subscriptionGroups": [] }, "subscriber": {}\#(book) }"#)
  }

  /// Every entry a reader sees, in its order: inline transactions, inline notifications, the journal.
  static func history(_ path: String) throws -> (inline: Int, journal: [Journal.Entry], ids: [String], uuids: [String]) {
    let state = try StateFile.load(path: path)
    var journal: [Journal.Entry] = []
    if let j = state.document.journal {
      journal = try Journal.readAll(path: PathName.directory(of: path) + "/" + j.file, committedBytes: j.committedBytes)
    }
    let inline = state.subscriber.transactions.count + state.subscriber.notifications.count
    var ids = try state.subscriber.transactions.typed().compactMap(\.transactionId)
    var uuids = state.subscriber.notifications.compactMap(\.notificationUUID)
    for e in journal {
      switch e {
      case .transaction(let t): ids += [t.transactionId ?? "?"]
      case .notification(let n): uuids += [n.notificationUUID ?? "?"]
      }
    }
    return (inline, journal, ids, uuids)
  }

  @Test func aNewSubscribersFirstSaveIsItsDocumentAloneWithTheHistoryInside() throws {
    let dir = TempDir()
    let path = Self.fresh(dir)
    try Self.renew(path, 0)
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasPrefix(".") }
    #expect(names == ["young.json"], "no journal file for a young subscriber")
    let state = try StateFile.load(path: path)
    #expect(state.document.journal == nil)
    #expect(try state.subscriber.transactions.typed().map(\.transactionId) == ["7000"])
    #expect(state.subscriber.notifications.map(\.notificationUUID) == ["renew-0"])
    #expect(state.historySummary.transactionCount == 1)
    #expect(state.historyIsComplete)
  }

  @Test func theSaveThatWouldPassTheLimitStartsTheJournalAndTheInlineEntriesStay() throws {
    let dir = TempDir()
    let path = Self.fresh(dir)
    // Two entries a save: the limit's worth of saves fill the inline history exactly.
    let inlineSaves = Self.limit / 2
    for k in 0..<inlineSaves { try Self.renew(path, k) }
    var h = try Self.history(path)
    #expect(h.inline == Self.limit)
    #expect(h.journal.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: dir.file("young.journal.jsonl")))

    try Self.renew(path, inlineSaves)
    h = try Self.history(path)
    #expect(h.inline == Self.limit, "the inline entries stay where they are")
    #expect(h.journal.count == 2, "the save past the limit went to the journal, whole")
    #expect(h.ids == (0...inlineSaves).map { String(7000 + $0) })
    #expect(h.uuids == (0...inlineSaves).map { "renew-\($0)" })

    let state = try StateFile.load(path: path)
    #expect(state.historySummary.transactionCount == inlineSaves + 1)
    #expect(state.historySummary.notificationCount == inlineSaves + 1)
    let recent = try StateFile.recentNotifications(state, statePath: path, limit: 3).map(\.notificationUUID)
    #expect(recent == ["renew-\(inlineSaves)", "renew-\(inlineSaves - 1)", "renew-\(inlineSaves - 2)"])
    let story = CustomerHistory.load(state, statePath: path)
    #expect(story.transactions.count == inlineSaves + 1)
  }

  @Test func theLimitIsInclusiveOneEntryMoreGoesToTheJournal() throws {
    let dir = TempDir()
    var doc = try StateFile.load(path: Self.fresh(dir)).document
    #expect(StateFile.keepsHistoryInline(doc, adding: Self.limit))
    #expect(!StateFile.keepsHistoryInline(doc, adding: Self.limit + 1))
    for k in 0..<(Self.limit - 1) { doc.subscriber.notifications.append(Self.didRenew(k)) }
    #expect(StateFile.keepsHistoryInline(doc, adding: 1))
    #expect(!StateFile.keepsHistoryInline(doc, adding: 2))
    doc.journal = JournalInfo(file: "young.journal.jsonl")
    #expect(!StateFile.keepsHistoryInline(doc, adding: 1), "once there is a journal, history goes there")
  }

  @Test func aSubscriberWhoseNotificationsAreDeliveredJournalsFromTheFirstEntry() throws {
    // The deliverer finds new notifications by journal offset (`DeliveryBook.journalOffset`).
    let dir = TempDir()
    let path = Self.fresh(dir, deliveries: true)
    try Self.renew(path, 0)
    let h = try Self.history(path)
    #expect(h.inline == 0)
    #expect(h.journal.count == 2)
  }

  @Test func aJournalACrashLeftBeforeTheJournalStartedIsCutNotRead() throws {
    let dir = TempDir()
    let path = Self.fresh(dir)
    for k in 0..<(Self.limit / 2) { try Self.renew(path, k) }
    // A writer died after appending to a new journal and before its document was renamed in.
    dir.write("young.journal.jsonl", "{\"not\": \"vouched for\"}\n")
    try Self.renew(path, Self.limit / 2)
    let h = try Self.history(path)
    #expect(h.journal.count == 2)
    #expect(!dir.text("young.journal.jsonl").contains("vouched"))
  }

  @Test func entriesOfOneMomentReadBackInTheOrderTheyWereWrittenInlineAsInTheJournal() throws {
    // A renewal and its DID_RENEW, then, at the same moment, the renewal's refunded version and
    // the REFUND: dates cannot order these, the written order can.
    func write(_ path: String) throws {
      try Self.renew(path, 0)
      try StateFile.update(path: path) { (state) throws(StateFileError) -> Change in
        var refunded = Self.renewal(0)
        refunded.revocationDate = refunded.purchaseDate
        let refund = NotificationRecord(type: .refund, uuid: "refund-0", signedDate: refunded.purchaseDate, status: .revoked, summary: "refund")
        return Change(state: state, transactions: [refunded], notifications: [refund], message: "refund")
      }
    }
    func order(_ entries: [Journal.Entry]) -> [String] {
      entries.map {
        switch $0 {
        case .transaction(let t): return t.revocationDate == nil ? "renewal" : "refunded renewal"
        case .notification(let n): return n.notificationUUID ?? "?"
        }
      }
    }
    let dir = TempDir()
    let inline = Self.fresh(dir)
    try write(inline)
    let other = TempDir()
    let journaled = other.write("young.json", StorageConcurrencyTests.journaling("young.json"))
    try write(journaled)
    #expect(try StateFile.load(path: inline).document.journal == nil)
    let expected = ["renewal", "renew-0", "refunded renewal", "refund-0"]
    #expect(order(try historyEntries(journaled)) == expected)
    #expect(order(try historyEntries(inline)) == expected)
  }

  @Test func aHandWrittenInlineHistoryIsInterleavedByDate() throws {
    let dir = TempDir()
    let path = dir.write("hand.json", #"""
      { "format": "subdash-state/1", "catalog": { "subscriptionGroups": [] }, "subscriber": {
        "transactions": [
          { "transactionId": "1", "originalTransactionId": "1", "purchaseDate": 1000 },
          { "transactionId": "2", "originalTransactionId": "1", "purchaseDate": 3000 } ],
        "notifications": [
          { "notificationType": "SUBSCRIBED", "notificationUUID": "a", "signedDate": 1500 },
          { "notificationType": "DID_RENEW", "notificationUUID": "b", "signedDate": 3000 },
          { "notificationType": "TEST", "notificationUUID": "c", "transactionsBefore": 99, "signedDate": 500 } ] } }
      """#)
    let order = try StateFile.load(path: path).subscriber.inlineEntriesInOrder().map {
      switch $0 {
      case .transaction(let t): return t.transactionId ?? "?"
      case .notification(let n): return n.notificationUUID ?? "?"
      }
    }
    // A count past the list's end is not used: "c" goes by its date, after what came before it.
    #expect(order == ["1", "a", "2", "b", "c"])
  }

  @Test func theIdsAnImportAsksForAreReadWithoutTypingEachEntryAndAWrongOneIsNamed() throws {
    let dir = TempDir()
    let good = dir.write("ids.json", #"{ "format": "subdash-state/1", "catalog": { "subscriptionGroups": [] }, "subscriber": { "transactions": [ { "transactionId": "1" }, { "originalTransactionId": "1" }, { "transactionId": "3" } ] } }"#)
    #expect(try StateFile.load(path: good).subscriber.transactions.transactionIds() == ["1", "3"])
    let bad = dir.write("bad.json", #"{ "format": "subdash-state/1", "catalog": { "subscriptionGroups": [] }, "subscriber": { "transactions": [ { "transactionId": "1" }, { "transactionId": 2 } ] } }"#)
    #expect {
      _ = try StateFile.load(path: bad).subscriber.transactions.transactionIds()
    } throws: { error in
      "\(error)".contains("transactions[1].transactionId") && "\(error)".contains("expected a string")
    }
  }
}
