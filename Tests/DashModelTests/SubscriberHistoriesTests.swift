import Testing

@testable import DashModel
@testable import CoreValues

/// A long inline history and notification log are read at the same time, on two cores. What a
/// user gets must not depend on it: the same entries, and for a damaged file the same error
/// (the history's first, as reading them in turn finds it).
@Suite struct SubscriberHistoriesTests {
  /// A subscriber with `count` history entries and `count` notifications; the entries at the
  /// given indices have a wrong type where the reader looks.
  static func subscriber(count: Int, transactionCount: Int? = nil, badTransaction: Int? = nil, badNotification: Int? = nil) throws -> ObjectReader {
    let transactions = (0..<(transactionCount ?? count)).map { k in
      k == badTransaction
        ? #"{"transactionId":"\#(k)","purchaseDate":"yesterday"}"#
        : #"{"transactionId":"\#(k)","productId":"pass.premium.monthly","purchaseDate":\#(1_767_983_534_000 + k * 300_000),"price":9990,"currency":"USD"}"#
    }
    let notifications = (0..<count).map { k in
      k == badNotification
        ? #"{"notificationType":"DID_RENEW","signedDate":true}"#
        : #"{"notificationType":"DID_RENEW","signedDate":\#(1_767_983_534_000 + k * 300_000),"summary":"renewal \#(k)"}"#
    }
    let text = #"{"transactions":[\#(transactions.joined(separator: ","))],"notifications":[\#(notifications.joined(separator: ","))]}"#
    return try ObjectReader(JSONParser.parse(Array(text.utf8)), at: JSONPath.root.appending("subscriber"))
  }

  static func read(_ r: ObjectReader, concurrentFrom: Int) -> Result<(InlineHistory, [NotificationRecord]), DecodeError> {
    do throws(DecodeError) { return .success(try Subscriber.histories(r, concurrentFrom: concurrentFrom)) } catch { return .failure(error) }
  }

  @Test func aLongHistoryReadOnTwoCoresIsTheHistoryReadInTurn() throws {
    let r = try Self.subscriber(count: 300)
    let (history, log) = try Subscriber.histories(r, concurrentFrom: 10)
    let (historyInTurn, logInTurn) = try Subscriber.histories(r, concurrentFrom: .max)
    #expect(history == historyInTurn)
    #expect(history.summary == historyInTurn.summary)
    #expect(log == logInTurn)
    #expect(history.count == 300 && log.count == 300)
    #expect(log.map(\.summary) == (0..<300).map { "renewal \($0)" })
  }

  /// A viewer reads the history while parsing (the document keeps an empty array): then the log
  /// alone is read on every core.
  @Test func aLongLogBesideAShortHistoryReadOnEveryCoreIsTheLogReadInTurn() throws {
    for transactions in [0, 3] {
      let r = try Self.subscriber(count: 300, transactionCount: transactions)
      let (history, log) = try Subscriber.histories(r, concurrentFrom: 10)
      let (historyInTurn, logInTurn) = try Subscriber.histories(r, concurrentFrom: .max)
      #expect(history == historyInTurn && history.count == transactions)
      #expect(log == logInTurn)
      #expect(log.map(\.summary) == (0..<300).map { "renewal \($0)" })
    }
    let cases: [(transaction: Int?, notification: Int?, expected: String)] = [
      (nil, 10, "$.subscriber.notifications[10].signedDate: expected a number, found a boolean"),
      (nil, 299, "$.subscriber.notifications[299].signedDate: expected a number, found a boolean"),
      (2, 250, "$.subscriber.transactions[2].purchaseDate: expected a number, found a string"),
    ]
    for c in cases {
      let r = try Self.subscriber(count: 300, transactionCount: 3, badTransaction: c.transaction, badNotification: c.notification)
      for concurrentFrom in [10, Int.max] {
        switch Self.read(r, concurrentFrom: concurrentFrom) {
        case .success: Issue.record("read without an error: \(c)")
        case .failure(let error): #expect("\(error)" == c.expected, "concurrent from \(concurrentFrom)")
        }
      }
    }
  }

  @Test func aDamagedFileGivesTheErrorReadingInTurnGives() throws {
    let cases: [(transaction: Int?, notification: Int?, expected: String)] = [
      (250, 10, "$.subscriber.transactions[250].purchaseDate: expected a number, found a string"),
      (nil, 10, "$.subscriber.notifications[10].signedDate: expected a number, found a boolean"),
      (7, nil, "$.subscriber.transactions[7].purchaseDate: expected a number, found a string"),
    ]
    for c in cases {
      let r = try Self.subscriber(count: 300, badTransaction: c.transaction, badNotification: c.notification)
      for concurrentFrom in [10, Int.max] {
        switch Self.read(r, concurrentFrom: concurrentFrom) {
        case .success: Issue.record("read without an error: \(c)")
        case .failure(let error): #expect("\(error)" == c.expected, "concurrent from \(concurrentFrom)")
        }
      }
    }
  }
}
