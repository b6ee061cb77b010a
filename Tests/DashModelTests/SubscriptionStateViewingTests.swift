import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// The dashboard keeps a state in memory for hours and re-reads the file for every action, so it
/// keeps a copy without the inline transaction history: the screen and every preview must be
/// exactly what the full state gives.
@Suite("Subscription state: the viewing copy")
struct SubscriptionStateViewingTests {
  static let examples = ["expired-voluntary", "price-increase", "pending-crossgrade", "auto-renew-off", "grace-period", "refunded"]

  func load(_ stem: String) throws -> SubscriptionState {
    try StateFile.load(path: ExamplesTests.directory.appendingPathComponent("\(stem).json").path)
  }

  @Test(arguments: examples)
  func theViewingCopyDropsTheInlineHistoryButKeepsItsSummary(_ stem: String) throws {
    let full = try load(stem)
    let view = full.forViewing()
    #expect(full.subscriber.transactions.count > 0)
    #expect(view.subscriber.transactions.count == 0)
    #expect(view.historySummary == full.historySummary)
    #expect(String(decoding: JSONWriter.write(view.document.json), as: UTF8.self).contains("\"transactions\"") == false)
  }

  @Test(arguments: examples)
  func theViewingCopyDerivesTheSameReportAndPreviews(_ stem: String) throws {
    let full = try load(stem)
    let view = full.forViewing()
    let now = try Simulator.clock(full)
    #expect(Lifecycle.derive(view, at: now) == Lifecycle.derive(full, at: now))
    var actions: [PlanAction] = full.catalog.allSubscriptions.flatMap { p in
      [PlanAction.upgrade(toProductId: p.productID), .downgrade(toProductId: p.productID), .crossgrade(toProductId: p.productID)]
    }
    actions += [.setAutoRenew(true), .setAutoRenew(false), .redeemOfferCode("SPRING26")]
    actions += full.allWinBackOffers.map { .acceptWinBack(offerId: $0.offerId) }
    for a in actions {
      let fromView = Actions.preview(a, in: view, at: now)
      let fromFull = Actions.preview(a, in: full, at: now)
      #expect(fromView == fromFull, "\(stem): \(a)")
    }
  }
}
