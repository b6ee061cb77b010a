import DashModel
import DashView
import Testing

@testable import DashRuntime
import CoreValues
import SubscriberStorage

/// The dashboard reads a file's inline history keeping only the fields its story reads
/// (`InlineHistory.viewingProjection`). Its story must be the one the file tells read whole,
/// when it opens and after the file changes.
@Suite struct DashboardViewedHistoryTests {
  let wall = Instant(ms: 1_800_000_000_000)

  /// Examples/active.json with 1,200 inline transactions made from its latest one: monthly
  /// renewals, an introductory first month, a refunded one, fields SubDash does not know.
  func fileWithInlineHistory() throws -> String {
    try DashboardSessionTests().copyOfExample("active") { root in
      guard case .object(var subscriber)? = root["subscriber"], case .object(let latest)? = subscriber["latestTransaction"] else { return }
      let month = 2_592_000_000.0
      subscriber["transactions"] = .array((0..<1_200).map { k in
        var t = latest
        t["transactionId"] = .string("30000000000\(k)")
        t["purchaseDate"] = .double(1_600_000_000_000 + Double(k) * month)
        t["expiresDate"] = .double(1_600_000_000_000 + Double(k + 1) * month)
        t["note"] = .object(JSONObject([("unknown", .array([.string("kept by the file, not the story")]))]))
        if k == 0 { t["offerType"] = .int(1); t["offerDiscountType"] = .string("PAY_AS_YOU_GO") }
        if k == 700 { t["revocationDate"] = .double(1_600_000_000_000 + 700.5 * month); t["revocationReason"] = .int(0) }
        return .object(t)
      })
      root["subscriber"] = .object(subscriber)
    }
  }

  /// The story of the file read whole, as the session derives its own.
  func storyReadWhole(_ path: String, session: DashboardSession) throws -> CustomerStory {
    let whole = try StateFile.load(path: path)
    let history = CustomerHistory.load(whole, statePath: path)
    return CustomerStory.derive(history, state: whole.forViewing(), now: session.viewingTime(wall: wall).now)
  }

  @Test func theStoryIsTheOneTheFileTellsReadWhole() throws {
    let path = try fileWithInlineHistory()
    let session = try DashboardSession(path: path, displayName: "state.json", options: DisplayOptions(), nowOverride: nil, retryAccess: nil)
    let story = try #require(session.model(wall: wall).story)
    #expect(story == (try storyReadWhole(path, session: session)))
    #expect(story.transactions.count >= 1_200)

    // Another writer refunds a transaction: the reloaded story follows the file.
    try StateFile.update(path: path) { state in
      var s = state
      s.document.subscriber.latestTransaction?.revocationDate = Instant(ms: 1_799_000_000_000)
      return Change(state: s, message: "refund")
    }
    _ = session.reload(wall: wall)
    let reloaded = try #require(session.model(wall: wall).story)
    #expect(reloaded != story)
    #expect(reloaded == (try storyReadWhole(path, session: session)))
  }
}
