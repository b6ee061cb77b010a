import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// The buy/resubscribe action: a lapsed customer with no code or win-back gets back in
/// (SUBSCRIBED / RESUBSCRIBE), a new customer buys (SUBSCRIBED / INITIAL_BUY); an active one is
/// sent to the plan changes instead. The preview is the same step as the write.
@Suite("Actions: buy or resubscribe")
struct ActionsBuyTests {
  static func example(_ name: String) throws -> (SubscriptionState, Instant) {
    let s = try StateFile.load(path: ExamplesTests.directory.appendingPathComponent("\(name).json").path)
    return (s, try Simulator.clock(s))
  }

  @Test func aLapsedCustomerResubscribes() throws {
    let (s, now) = try Self.example("expired-voluntary")
    let id = try #require(s.subscriber.latestTransaction?.productId)
    let preview = try Actions.preview(.buy(productId: id), in: s, at: now).get()
    #expect(preview.summary.hasPrefix("Resubscribe to Premium"), "\(preview.summary)")
    #expect(preview.summary.contains(" USD"), "\(preview.summary)")
    let change = try Actions.apply(.buy(productId: id), to: s, at: now).get()
    let n = try #require(change.notifications.first)
    #expect(n.notificationType == .subscribed)
    #expect(n.subtype == .resubscribe)
    #expect(Lifecycle.derive(change.state, at: now).status == .active)
    #expect(change.state.subscriber.latestTransaction?.originalTransactionId == s.subscriber.latestTransaction?.originalTransactionId)
  }

  @Test func aNewCustomerBuysWithInitialBuy() throws {
    let (s, now) = try Self.example("new-subscriber")
    let id = try #require(s.catalog.allSubscriptions.first?.productID)
    var plain = s
    plain.document.simulation?["askToBuy"] = nil
    let change = try Actions.apply(.buy(productId: id), to: plain, at: now).get()
    if let n = change.notifications.first {
      #expect(n.notificationType == .subscribed)
      #expect(n.subtype == .initialBuy)
    } else {
      #expect(change.message.hasPrefix("Ask to Buy"), "\(change.message)")
    }
  }

  @Test func anActiveCustomerIsSentToPlanChanges() throws {
    let (s, now) = try Self.example("active")
    let id = try #require(s.subscriber.latestTransaction?.productId)
    let result = Actions.preview(.buy(productId: id), in: s, at: now)
    guard case .failure(let error) = result else { Issue.record("buying while active was previewed"); return }
    #expect(error.message.hasPrefix("Already subscribed to"), "\(error.message)")
  }
}
