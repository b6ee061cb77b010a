import Testing

@testable import DashModel
@testable import CoreValues

/// Refunding a chosen transaction, as Xcode's transaction manager does: the latest (the current
/// period's) ends access; an earlier one is revoked alone and the subscription goes on.
@Suite("Refunding a chosen transaction")
struct RefundChosenTransactionTests {
  /// A monthly subscriber renewed twice (January, February, March), every transaction version
  /// kept as the journal keeps them, so a refund can name any of them.
  struct History {
    var sim = Sim()
    var versions: [TransactionPayload] = []

    init() {
      apply(Simulator.buy(PurchaseRequest(productId: "pass.premium.monthly", familyShared: false, useIntroductoryOffer: false), state: sim.state, at: sim.now))
      apply(.success(try! Simulator.advance(sim.state, to: Sim.at("2026-03-10T00:00:00Z"))))
    }

    mutating func apply(_ result: Result<Change, ActionError>, sourceLocation: SourceLocation = #_sourceLocation) {
      guard case .success(let change) = result else {
        if case .failure(let e) = result { Issue.record("refused: \(e.message)", sourceLocation: sourceLocation) }
        return
      }
      versions += change.transactions
      sim.commit(change)
    }

    var lookup: TransactionLookup {
      let all = versions
      return TransactionLookup { id in all.last { $0.transactionId == id } }
    }

    var ids: [String] {
      var seen: [String] = []
      for v in versions where !seen.contains(v.transactionId!) { seen.append(v.transactionId!) }
      return seen
    }

    func refund(_ id: String, prorated: Bool = false) -> Result<Change, ActionError> {
      Actions.apply(.refundTransaction(transactionId: id, prorated: prorated), to: sim.state, at: sim.now, history: lookup)
    }
  }

  @Test func anEarlierTransactionIsRevokedAloneAndTheSubscriptionGoesOn() throws {
    var h = History()
    #expect(h.ids.count == 3)
    let january = h.ids[0]
    let latestBefore = h.sim.latest
    let change = try h.refund(january).get()
    // That transaction, revoked as Apple revokes a refunded one.
    #expect(change.transactions.count == 1)
    let revoked = try #require(change.transactions.first)
    #expect(revoked.transactionId == january)
    #expect(revoked.revocationDate == h.sim.now)
    #expect(revoked.revocationReason == .other)
    #expect(revoked.revocationType == .refundFull)
    #expect(revoked.revocationPercentage == 100_000)
    // REFUND names it; nothing else is sent (auto-renew stays on).
    #expect(change.notifications.map(\.label) == ["REFUND"])
    #expect(change.notifications.first?.source["transactionId"]?.stringValue == january)
    // The latest transaction, the renewal info and the status are as they were.
    #expect(change.state.subscriber.latestTransaction == latestBefore)
    #expect(change.state.subscriber.renewalInfo?.autoRenewOn == true)
    let paidBefore = h.sim.state.historySummary
    h.apply(.success(change))
    #expect(h.sim.status == .active)
    // The history's paid time (win-back eligibility) keeps that period: it was paid and used.
    #expect(h.sim.state.historySummary.paidMillis == paidBefore.paidMillis)
    #expect(h.sim.state.historySummary.paidUntil == paidBefore.paidUntil)
    // The next renewal comes when it would have: the refund did not move the paid time back.
    let due = try #require(h.sim.nextEvent)
    #expect(due.date == latestBefore.expiresDate)
    h.sim.next()
    #expect(h.sim.labels.last == "DID_RENEW")
    // Refunding it again is refused, with the date it was refunded.
    guard case .failure(let again) = h.refund(january) else {
      Issue.record("a second refund of the same transaction was applied")
      return
    }
    #expect(again.message.contains("already refunded"))
  }

  @Test func theLatestTransactionIsTheCurrentPeriodsAndItsRefundEndsAccess() throws {
    var h = History()
    let latest = try #require(h.ids.last)
    let change = try h.refund(latest).get()
    #expect(change.state.subscriber.latestTransaction?.transactionId == latest)
    #expect(change.state.subscriber.latestTransaction?.revocationDate == h.sim.now)
    #expect(change.notifications.map(\.label).contains("REFUND"))
    h.apply(.success(change))
    #expect(h.sim.status == .revoked)
  }

  @Test func thePreviewSaysWhichAndAProratedRefundOfAPastPeriodIsRefused() throws {
    let h = History()
    let february = h.ids[1]
    let preview = try Actions.preview(.refundTransaction(transactionId: february, prorated: false), in: h.sim.state, at: h.sim.now,
                                      history: h.lookup).get()
    #expect(preview.summary.hasPrefix("Refund transaction \(february) (Premium Monthly"))
    #expect(preview.summary.contains("in full, 9.99 USD"))
    #expect(preview.summary.contains("Only this transaction is revoked"))
    #expect(preview.refundMilli == 9_990)
    guard case .failure(let prorated) = h.refund(february, prorated: true) else {
      Issue.record("a prorated refund of a period that ended was applied")
      return
    }
    #expect(prorated.message.contains("refund it in full"))
    guard case .failure(let unknown) = h.refund("999") else {
      Issue.record("a refund of an unknown transaction was applied")
      return
    }
    #expect(unknown.message == "Transaction 999 is not in this subscriber's history.")
  }

  @Test func productionDataIsRefused() throws {
    var h = History()
    var s = h.sim.state
    var t = try #require(s.subscriber.latestTransaction)
    t.environment = .production
    s.subscriber.latestTransaction = t
    h.sim.state = s
    guard case .failure(let e) = h.refund(h.ids[0]) else {
      Issue.record("a refund on Production data was applied")
      return
    }
    #expect(e == .productionData("Simulation"))
  }

  /// A follower (`subdash deliver`, `serve`'s notification history) sends the REFUND with the
  /// earlier transaction it concerns, and later notifications with the latest again.
  @Test func deliveryCarriesTheRefundedTransactionOnlyWithItsRefund() throws {
    var h = History()
    let january = h.ids[0]
    let change = try h.refund(january).get()
    h.apply(.success(change))
    h.sim.run(.advance(.days(40)))
    var intake = DeliveryIntake(lastTransaction: nil)
    var entries = h.versions.prefix(3).map(Journal.Entry.transaction)
    entries += change.transactions.map(Journal.Entry.transaction) + change.notifications.map(Journal.Entry.notification)
    let later = NotificationRecord(type: .didChangeRenewalStatus, subtype: .autoRenewDisabled, uuid: "u-later", signedDate: h.sim.now, status: .active)
    entries.append(.notification(later))
    let sent = intake.take(entries)
    #expect(sent.map(\.notification.label) == ["REFUND", "DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED"])
    #expect(sent[0].transaction?.transactionId == january)
    #expect(sent[0].transaction?.revocationDate != nil)
    #expect(sent[1].transaction?.transactionId == h.ids[2])
  }
}
