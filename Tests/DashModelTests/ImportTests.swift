import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage
@testable import SubscriberImport

@Suite struct ImportTests {
  let t0: Int64 = 1_770_000_000_000

  /// What each sample from Apple's library and RevenueCat carries (read off the files themselves)
  /// is what the import finds in it: its transactions, notifications and renewal info, where the
  /// data came from, and a warning naming the exact place of every placeholder that was skipped.
  struct Sample {
    var file: String
    var transactions: [String] = []
    var notifications: [String] = []
    var renewalFor: String? = nil
    var sources: [String] = []
    var skipped: [String] = []
    var status: String? = nil
    var originalTransactionId: String? = nil
  }

  static let samples: [Sample] = [
    Sample(file: "appstore/signedTransaction.json", transactions: ["23456"], sources: ["unsigned (decoded payload)"], status: "revoked"),
    Sample(file: "appstore/signedRenewalInfo.json", renewalFor: "12345", sources: ["unsigned (decoded payload)"]),
    Sample(file: "appstore/signedNotification.json", notifications: ["SUBSCRIBED/INITIAL_BUY"], sources: ["unsigned (decoded payload)"],
           skipped: ["$.data.signedRenewalInfo", "$.data.signedTransactionInfo"]),
    Sample(file: "appstore/signedSummaryNotification.json", notifications: ["RENEWAL_EXTENSION/SUMMARY"], sources: ["unsigned (decoded payload)"]),
    Sample(file: "appstore/mock_signed_data_testNotification.jws", notifications: ["TEST/-"], sources: ["unverified (Sandbox)"]),
    Sample(file: "appstore/mock_signed_data_transactionInfo.jws", sources: ["unverified (Sandbox)"], skipped: ["$"]),
    Sample(file: "appstore/mock_signed_data_renewalInfo.jws", sources: ["unverified (Sandbox)"], skipped: ["$"]),
    Sample(file: "appstore/xcode_xcode-signed-transaction.jws", transactions: ["0"], sources: ["unverified (Xcode)"], status: "expired"),
    Sample(file: "appstore/xcode_xcode-signed-renewal-info.jws", renewalFor: "0", sources: ["unverified (Xcode)"]),
    Sample(file: "appstore/transactionInfoResponse.json", skipped: ["$.signedTransactionInfo"]),
    Sample(file: "appstore/getNotificationHistoryResponse.json", skipped: ["$.notificationHistory[0].signedPayload", "$.notificationHistory[1].signedPayload"]),
    Sample(file: "revenuecat/CustomerInfo.json",
           transactions: ["revenuecat:com.revenuecat.ABCDNA12U.ProductName:1649721808000", "revenuecat:com.revenuecat.monthly_4.99.1_week_intro:1649721808000"],
           sources: ["RevenueCat"], status: "expired"),
    Sample(file: "revenuecat/CustomerInfo-v2.json",
           transactions: ["revenuecat:com.revenuecat.intro_test.monthly.no_intro:1671647689000", "revenuecat:com.revenuecat.intro_test.monthly.1_week_intro:1671649964000",
                          "revenuecat:com.revenuecat.monthly_4.99.1_week_intro:1673555384000"],
           sources: ["RevenueCat"], status: "expired"),
    // Several subscribers, every signed field a placeholder: nothing to import, each one named.
    Sample(file: "appstore/getAllSubscriptionStatusesResponse.json",
           skipped: ["$.data[0].lastTransactions[0].signedRenewalInfo", "$.data[0].lastTransactions[0].signedTransactionInfo",
                     "$.data[0].lastTransactions[1].signedRenewalInfo", "$.data[0].lastTransactions[1].signedTransactionInfo",
                     "$.data[1].lastTransactions[0].signedRenewalInfo", "$.data[1].lastTransactions[0].signedTransactionInfo"],
           originalTransactionId: "3749183"),
  ]

  @Test(arguments: ImportTests.samples.map(\.file))
  func eachSampleImportsWhatItHoldsAndNamesWhatItSkipped(_ file: String) throws {
    let want = try #require(Self.samples.first { $0.file == file })
    let m = try Importer.merge(inputs: [ImportInput(label: file, bytes: Fixture.bytes(file))], options: .init(originalTransactionId: want.originalTransactionId))
    #expect(m.transactions.map { $0.transactionId ?? "" } == want.transactions)
    #expect(m.notifications.map { "\($0.notificationType.rawValue)/\($0.subtype?.rawValue ?? "-")" } == want.notifications)
    #expect(m.renewalInfo?.originalTransactionId == want.renewalFor)
    #expect(m.sources.map { $0.badge(ascii: true) } == want.sources)
    let skippedAt = m.warnings.compactMap { w -> String? in
      let rest = w.dropFirst(file.count + 2)  // "<file>: "
      guard w.hasPrefix(file + ": "), rest.contains("skipped") else { return nil }
      return rest.split(separator: ":", maxSplits: 1).first.map(String.init)
    }
    #expect(skippedAt.sorted() == want.skipped.sorted(), "\(m.warnings)")
    guard !m.transactions.isEmpty else { return }
    let state = try Importer.viewingState(m, catalog: .derived, label: file) { (_) throws(StateFileError) -> Catalog in
      throw StateFileError(file: file, message: "no catalog file")
    }
    let status = Lifecycle.derive(state, at: Instant(ms: Double(t0))).status
    #expect(status.map { "\($0)" } == want.status)
  }

  @Test func xcodeTransactionIsUnverifiedAndRevenueCatKeepsOtherStoresApart() throws {
    let x = try Importer.merge(inputs: [ImportInput(label: "x.jws", bytes: Fixture.bytes("appstore/xcode_xcode-signed-transaction.jws"))], options: .init())
    let sx = try Importer.viewingState(x, catalog: .derived, label: "x") { (_) throws(StateFileError) -> Catalog in throw StateFileError(file: "", message: "") }
    #expect(sx.importProvenance?.badge(ascii: false) == "unverified (Xcode)")
    #expect(sx.catalog.derivedFromTransactions)

    let rc = try Importer.merge(inputs: [ImportInput(label: "rc.json", bytes: Fixture.bytes("revenuecat/CustomerInfo-v2.json"))], options: .init())
    #expect(rc.otherStores.map { $0["store"]?.stringValue } == ["play_store"])
    #expect(rc.transactions.allSatisfy { Provenance($0.source[Provenance.key])?.signature == .revenueCat })
    #expect(!rc.transactions.contains { $0.productId == "com.revenuecat.annual_39.99.2_week_intro" })
  }

  @Test func appleSignedHistoryShowsTheBadgeAndPlanActionsNeedACatalog() throws {
    let page = ImportKit.historyPage([ImportKit.transaction(1, purchase: t0), ImportKit.transaction(2, purchase: t0 + 300_000)], hasMore: false)
    let m = try ImportKit.merge([ImportKit.input("h.json", page)])
    let s = try Importer.viewingState(m, catalog: .derived, label: "h") { (_) throws(StateFileError) -> Catalog in throw StateFileError(file: "", message: "") }
    #expect(s.importProvenance?.badge(ascii: false) == "\u{2713} Apple-signed (Sandbox)")
    #expect(s.importProvenance?.badge(ascii: true) == "OK Apple-signed (Sandbox)")
    #expect(s.subscriber.latestTransaction?.transactionId == "2")
    #expect(s.catalog.product("pro.monthly")?.period == "P1M")  // a 5-minute sandbox period is a month
    let refused = Actions.apply(.setAutoRenew(false), to: s, at: Instant(ms: Double(t0 + 1000)))
    #expect(refused == .failure(.other("no catalog: attach one with --catalog app.storekit")))
  }

  @Test func duplicatesCollapseAndTheNewestSignedVersionWins() throws {
    let first = ImportKit.historyPage([ImportKit.transaction(1, purchase: t0)], hasMore: true)
    let refunded = ImportKit.historyPage([ImportKit.transaction(1, purchase: t0, signed: t0 + 50_000, extra: #","revocationDate":\#(t0 + 40_000)"#)], hasMore: false)
    let n = ImportKit.notification(uuid: "u1", type: "SUBSCRIBED", signed: t0, transaction: ImportKit.transaction(1, purchase: t0))
    let body = #"{"signedPayload":"\#(ImportKit.jws(n))"}"#
    let history = #"{"notificationHistory":[{"signedPayload":"\#(ImportKit.jws(n))","sendAttempts":[{"attemptDate":1,"sendAttemptResult":"NO_RESPONSE"},{"attemptDate":2,"sendAttemptResult":"SUCCESS"}]}],"hasMore":false}"#
    let m = try ImportKit.merge([ImportKit.input("a.json", first), ImportKit.input("b.json", refunded),
                                 ImportKit.input("hook.jsonl", body + "\n" + body + "\n"), ImportKit.input("nh.json", history)])
    #expect(m.transactions.count == 1)
    #expect(m.transactions[0].revocationDate != nil)
    #expect(m.notifications.count == 1)
    #expect(m.notifications[0].summary == "delivered after 1 failed attempt (NO_RESPONSE)")
  }

  @Test func shuffledInputsWriteByteIdenticalFiles() throws {
    var inputs: [ImportInput] = []
    for p in 0..<5 {
      let ts = (0..<4).map { i in ImportKit.transaction(p * 4 + i, purchase: t0 + Int64(p * 4 + i) * 300_000) }
      inputs.append(ImportKit.input("page\(p).json", ImportKit.historyPage(ts, hasMore: p < 4)))
    }
    inputs.append(ImportKit.input("r1.jws", ImportKit.jws(ImportKit.renewal(signed: t0 + 10))))
    inputs.append(ImportKit.input("r2.jws", ImportKit.jws(ImportKit.renewal(signed: t0 + 20, autoRenew: 0))))
    let dir = TempDir()
    var outputs: [[UInt8]] = []
    for (k, order) in [inputs, inputs.reversed(), inputs.shuffled()].enumerated() {
      let path = dir.file("s\(k).json")
      _ = try Importer.write(try ImportKit.merge(order), to: path, catalog: nil)
      outputs.append(dir.bytes("s\(k).json") + [0] + dir.bytes("s\(k).journal.jsonl"))
    }
    // The journal file name differs with the state file's; compare with it spelled the same.
    let normal = outputs.enumerated().map { k, b in String(decoding: b, as: UTF8.self).replacingOccurrences(of: "s\(k).journal", with: "J") }
    #expect(normal[0] == normal[1])
    #expect(normal[0] == normal[2])
    let state = try StateFile.load(path: dir.file("s0.json"))
    #expect(state.subscriber.renewalInfo?.autoRenewStatus == .off)
    #expect(state.historySummary.transactionCount == 20)
  }

  @Test func importingAgainAddsOnlyWhatIsNew() throws {
    let dir = TempDir()
    let path = dir.file("s.json")
    let a = ImportKit.historyPage([ImportKit.transaction(1, purchase: t0)], hasMore: true)
    let b = ImportKit.historyPage([ImportKit.transaction(1, purchase: t0), ImportKit.transaction(2, purchase: t0 + 300_000)], hasMore: false)
    let w1 = try Importer.write(try ImportKit.merge([ImportKit.input("a.json", a)]), to: path, catalog: nil)
    #expect(w1.created && w1.newTransactions == 1)
    let w2 = try Importer.write(try ImportKit.merge([ImportKit.input("b.json", b)]), to: path, catalog: nil)
    #expect(!w2.created && w2.newTransactions == 1)
    let state = try StateFile.load(path: path)
    #expect(state.subscriber.latestTransaction?.transactionId == "2")
    #expect(state.historySummary.transactionCount == 2)
  }

  /// A re-import of what the file already holds is not a save: no new file is renamed into place
  /// (a dashboard following it is not woken) and the journal does not grow.
  @Test func importingTheSameInputAgainWritesNothing() throws {
    let dir = TempDir()
    let path = dir.file("s.json")
    let page = ImportKit.historyPage([ImportKit.transaction(1, purchase: t0)], hasMore: false)
    _ = try Importer.write(try ImportKit.merge([ImportKit.input("a.json", page)]), to: path, catalog: nil)
    var before = stat(), after = stat()
    #expect(stat(path, &before) == 0)
    let journalBefore = dir.bytes("s.journal.jsonl")
    let again = try Importer.write(try ImportKit.merge([ImportKit.input("a.json", page)]), to: path, catalog: nil)
    #expect(!again.created && again.newTransactions == 0 && again.newNotifications == 0)
    #expect(stat(path, &after) == 0)
    #expect(after.st_ino == before.st_ino)
    #expect(dir.bytes("s.journal.jsonl") == journalBefore)
    // The same transaction from another input is news for the document (its list of sources).
    _ = try Importer.write(try ImportKit.merge([ImportKit.input("b.json", page)]), to: path, catalog: nil)
    #expect(stat(path, &after) == 0)
    #expect(after.st_ino != before.st_ino)
    #expect(dir.bytes("s.journal.jsonl") == journalBefore)
  }

  @Test func severalSubscribersNeedAChoice() throws {
    let inputs = [ImportKit.input("a.jws", ImportKit.jws(ImportKit.transaction(1, otid: "111", purchase: t0))),
                  ImportKit.input("b.jws", ImportKit.jws(ImportKit.transaction(2, otid: "222", purchase: t0)))]
    #expect(throws: ImportError(input: "inputs", message: "the inputs hold 2 subscribers (originalTransactionId 111, 222); choose one with --original-transaction-id ID")) {
      try ImportKit.merge(inputs)
    }
    let m = try ImportKit.merge(inputs, otid: "222")
    #expect(m.transactions.map(\.transactionId) == ["2"])
  }

  @Test func malformedInputsSayWhere() throws {
    let good = #"{"signedPayload":"\#(ImportKit.jws(ImportKit.notification(uuid: "u", type: "DID_RENEW", signed: t0, transaction: ImportKit.transaction(1, purchase: t0))))"}"#
    #expect(throws: ImportError(input: "hook.jsonl", line: 2, message: "invalid JSON at column 3: unexpected '}' after the end of the JSON value")) {
      try ImportKit.merge([ImportKit.input("hook.jsonl", good + "\n{}}\n")])
    }
    #expect(throws: ImportError(input: "p.json", line: 1, path: JSONPath([.key("signedTransactions"), .index(0)]), message: "not a compact JWS: expected 3 dot-separated parts, found 2")) {
      try ImportKit.merge([ImportKit.input("p.json", #"{"revision":"r","bundleId":"b","signedTransactions":["a.b"]}"#)])
    }
    #expect(throws: ImportError(input: "t.jws", line: 1, message: "signature invalid: chain does not end in Apple Root CA - G3")) {
      try ImportKit.merge([ImportKit.input("t.jws", ImportKit.jws(ImportKit.transaction(1, purchase: t0)))], checker: Rejects(reason: "chain does not end in Apple Root CA - G3"))
    }
    // An empty array is nothing to import, not a customer who never subscribed.
    #expect(throws: ImportError(input: "empty.json", line: 1, path: JSONPath.root, message: "an empty array: no App Store or RevenueCat data to import")) {
      try ImportKit.merge([ImportKit.input("empty.json", "[]")])
    }
  }
}
