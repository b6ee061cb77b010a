import DashModel
import DashView
import Foundation
import Testing
@testable import DashRuntime
@testable import SubDash
import CoreValues
import SubscriberStorage

/// A developer simulates a population: N subscribers made from the demo subscriber with the
/// mix's failure rate and churn, advanced a year by the engine on every core. The same seed gives
/// the same files, byte for byte, whatever the threads did.
@Suite struct PopulationTests {
  func run(_ dir: URL, count: Int = 60, seed: UInt64 = 7, mix: SimulatePopulation.Mix = .init()) throws -> SimulatePopulation.Summary {
    try SimulatePopulation(directory: dir.path, count: count, seed: seed, mix: mix, months: 6).run()
  }

  func fresh() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("subdash-population-\(UUID().uuidString)")
  }

  @Test func theSameSeedGivesByteIdenticalFiles() throws {
    let a = fresh(), b = fresh(), c = fresh()
    defer { for d in [a, b, c] { try? FileManager.default.removeItem(at: d) } }
    _ = try run(a)
    _ = try run(b)
    _ = try run(c, seed: 8)
    let names = try FileManager.default.contentsOfDirectory(atPath: a.path).filter { !$0.hasPrefix(".subdash.lock") }.sorted()
    #expect(names.count >= 60)
    var differsWithAnotherSeed = false
    for name in names {
      let bytes = try Data(contentsOf: a.appendingPathComponent(name))
      #expect(bytes == (try Data(contentsOf: b.appendingPathComponent(name))), "\(name)")
      if let other = try? Data(contentsOf: c.appendingPathComponent(name)), other != bytes { differsWithAnotherSeed = true }
    }
    #expect(differsWithAnotherSeed, "another seed must give another population")
  }

  @Test func everySubscriberIsAdvancedAndTheMixShows() throws {
    let dir = fresh()
    defer { try? FileManager.default.removeItem(at: dir) }
    let summary = try run(dir, count: 40, mix: .init(failureRate: 1, autoRenewOff: 0))
    #expect(summary.created == 40)
    #expect(summary.subscribers == 40)
    #expect(summary.subscriberMonths == 40 * 6)
    #expect(summary.failures.isEmpty)
    // Every renewal fails: nobody renews, every subscriber goes through a billing issue.
    #expect(summary.notifications["DID_RENEW"] == nil)
    #expect(summary.notifications["DID_FAIL_TO_RENEW / GRACE_PERIOD"] == 40)

    let calm = fresh()
    defer { try? FileManager.default.removeItem(at: calm) }
    let churn = try run(calm, count: 40, mix: .init(failureRate: 0, autoRenewOff: 1))
    #expect(churn.notifications["EXPIRED / VOLUNTARY"] == 40)
    // A second run advances the same subscribers; none is made again.
    let again = try run(calm, count: 40)
    #expect(again.created == 0 && again.subscribers == 40)
  }

  @Test func aMixFileIsCheckedAndNamedWhenWrong() throws {
    let dir = fresh()
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let good = dir.appendingPathComponent("mix.json")
    try Data(#"{"failureRate": 0.2, "autoRenewOff": 0.3}"#.utf8).write(to: good)
    #expect(try SimulatePopulation.Mix.read(good.path) == .init(failureRate: 0.2, autoRenewOff: 0.3))
    try Data(#"{"refundRate": 0.1, "priceIncreaseRate": 0.2, "priceIncreaseConsent": 0.7, "upgradeRate": 0.05}"#.utf8).write(to: good)
    let full = try SimulatePopulation.Mix.read(good.path)
    #expect(full.refundRate == 0.1 && full.priceIncreaseRate == 0.2 && full.priceIncreaseConsent == 0.7 && full.upgradeRate == 0.05)
    let bad = dir.appendingPathComponent("bad.json")
    try Data(#"{"failureRate": 2}"#.utf8).write(to: bad)
    #expect(throws: SimulateInputError.self) { _ = try SimulatePopulation.Mix.read(bad.path) }
    try Data(#"{"refunds": 0.1}"#.utf8).write(to: bad)
    do { _ = try SimulatePopulation.Mix.read(bad.path); Issue.record("an unknown key was accepted") } catch let e as SimulateInputError {
      #expect(e.message.contains("$.refunds is not a mix setting"))
    }
  }

  /// Refunds, price increases and upgrades for the mix's shares, each at a moment drawn from the
  /// subscriber's own seed: everyone gets each when the share is 1, no one when it is 0.
  @Test func refundsPriceIncreasesAndUpgradesFollowTheMix() throws {
    let dir = fresh()
    defer { try? FileManager.default.removeItem(at: dir) }
    var all = SimulatePopulation.Mix(failureRate: 0, autoRenewOff: 0)
    all.priceIncreaseRate = 1
    all.priceIncreaseConsent = 1
    all.upgradeRate = 1
    let summary = try run(dir, count: 20, mix: all)
    #expect(summary.notifications["PRICE_INCREASE / PENDING"] == 20)
    #expect(summary.notifications["PRICE_INCREASE / ACCEPTED"] == 20)
    #expect(summary.notifications["DID_CHANGE_RENEWAL_PREF / UPGRADE"] == 20)
    #expect(summary.notifications["REFUND"] == nil)

    let refunded = fresh()
    defer { try? FileManager.default.removeItem(at: refunded) }
    var refunds = SimulatePopulation.Mix(failureRate: 0, autoRenewOff: 0)
    refunds.refundRate = 1
    let r = try run(refunded, count: 20, mix: refunds)
    #expect((r.notifications["REFUND"] ?? 0) + r.skipped == 20)
    #expect((r.notifications["REFUND"] ?? 0) > 0)
  }

  /// A subscriber's whole history, wherever it is: the inline entries (a young subscriber's whole
  /// history, `StateFile.inlineHistoryLimit`), then the committed part of its journal if it has one.
  func history(_ dir: URL, _ name: String) throws -> [Journal.Entry] {
    let path = dir.appendingPathComponent(name).path
    return try StateFile.historyEntries(StateFile.load(path: path), statePath: path)
  }

  /// Every transaction in a subscriber's history (inline, then journal), oldest first, as JSON
  /// objects: the first is the purchase.
  func historyTransactions(_ dir: URL, _ name: String) throws -> [[String: Any]] {
    try history(dir, name).compactMap { entry -> [String: Any]? in
      guard case .transaction(let t) = entry else { return nil }
      return try JSONSerialization.jsonObject(with: Data(JSONWriter.write(.object(t.source), pretty: false))) as? [String: Any]
    }
  }

  /// Every notification in a subscriber's history (inline, then journal), oldest first.
  func historyNotifications(_ dir: URL, _ name: String) throws -> [NotificationRecord] {
    try history(dir, name).compactMap { if case .notification(let n) = $0 { return n } else { return nil } }
  }

  func stateNames(_ dir: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }.sorted()
  }

  /// A mix with products: every subscriber is a new customer who buys a drawn plan at the start,
  /// with its own ids (not a sequence number every file shares), the demo's app, and the
  /// introductory offer for `introOfferRate` of them.
  @Test func newCustomersBuyTheMixsPlansWithOrWithoutTheIntroductoryOffer() throws {
    let dir = fresh()
    defer { try? FileManager.default.removeItem(at: dir) }
    var mix = SimulatePopulation.Mix(failureRate: 0, autoRenewOff: 0)
    mix.products = [.init("pass.premium.annual", 1), .init("pass.individual.monthly", 3)]
    mix.introOfferRate = 0
    _ = try run(dir, count: 40, mix: mix)
    var products: [String: Int] = [:]
    for name in try stateNames(dir) {
      let first = try #require(try historyTransactions(dir, name).first)
      #expect(first["originalTransactionId"] as? String == name.replacingOccurrences(of: ".json", with: ""))
      #expect(first["bundleId"] as? String == "com.example.birdwatch")
      #expect(first["offerType"] == nil, "introOfferRate 0: nobody takes the free trial")
      products[first["productId"] as? String ?? "?", default: 0] += 1
    }
    #expect(Set(products.keys) == ["pass.premium.annual", "pass.individual.monthly"])
    #expect(products["pass.individual.monthly"]! > products["pass.premium.annual"]!, "weights 3:1 over 40")

    let trial = fresh()
    defer { try? FileManager.default.removeItem(at: trial) }
    mix.introOfferRate = 1
    mix.products = [.init("pass.individual.monthly", 1)]  // the annual plan has no introductory offer
    _ = try run(trial, count: 10, mix: mix)
    for name in try stateNames(trial) {
      #expect(try historyTransactions(trial, name).first?["offerType"] as? Int == 1, "\(name): the introductory offer")
    }
  }

  /// Lapsed subscribers who accept win-back offers come back on one (offerType 4); with an
  /// acceptance of 0 nobody does. Offer codes are redeemed (offerType 3) or skipped when the
  /// subscriber is not eligible, never lost.
  @Test func winBackAcceptanceAndOfferCodesFollowTheMix() throws {
    // Premium's win-back wants 2 paid months and a month lapsed: subscribers who paid, then
    // lost their subscription to billing, become eligible during 8 months.
    var mix = SimulatePopulation.Mix(failureRate: 0.5, autoRenewOff: 0)
    mix.products = [.init("pass.premium.monthly", 1)]
    mix.introOfferRate = 0
    mix.winBackAcceptance = 1
    let dir = fresh()
    defer { try? FileManager.default.removeItem(at: dir) }
    let summary = try SimulatePopulation(directory: dir.path, count: 20, seed: 7, mix: mix, months: 8).run()
    var winBacks = 0
    for name in try stateNames(dir) { winBacks += try historyTransactions(dir, name).filter { $0["offerType"] as? Int == 4 }.count }
    #expect(winBacks > 0)
    #expect((summary.notifications["SUBSCRIBED / RESUBSCRIBE"] ?? 0) > 0)

    mix.winBackAcceptance = 0
    let none = fresh()
    defer { try? FileManager.default.removeItem(at: none) }
    let noWinBack = try SimulatePopulation(directory: none.path, count: 20, seed: 7, mix: mix, months: 8).run()
    #expect(noWinBack.notifications["SUBSCRIBED / RESUBSCRIBE"] == nil)

    var codes = SimulatePopulation.Mix(failureRate: 0, autoRenewOff: 0)
    codes.offerCodeRate = 1
    let coded = fresh()
    defer { try? FileManager.default.removeItem(at: coded) }
    let c = try run(coded, count: 20, mix: codes)
    var redeemed = 0
    for name in try stateNames(coded) { redeemed += try historyTransactions(coded, name).contains { $0["offerType"] as? Int == 3 } ? 1 : 0 }
    let offerNotes = c.notifications.filter { $0.key.hasPrefix("OFFER_REDEEMED") || $0.key.hasPrefix("SUBSCRIBED") }.values.reduce(0, +)
    #expect(offerNotes + c.skipped == 20, "every subscriber redeemed a code or was refused one: \(c.notifications), skipped \(c.skipped)")
    #expect(redeemed + c.skipped <= 20)
  }

  /// The whole mix (new customers, offers, codes, win-backs, refunds, price increases, upgrades)
  /// is drawn from the seeds alone: two runs give the same bytes whatever the threads did.
  @Test func theFullMixIsByteIdenticalForTheSameSeed() throws {
    var mix = SimulatePopulation.Mix(failureRate: 0.3, autoRenewOff: 0.2)
    mix.products = [.init("pass.family.monthly", 2), .init("pass.premium.monthly", 1), .init("pass.individual.monthly", 1)]
    mix.introOfferRate = 0.5
    mix.offerCodeRate = 0.3
    mix.winBackAcceptance = 0.7
    mix.refundRate = 0.1
    mix.priceIncreaseRate = 0.2
    mix.upgradeRate = 0.1
    let a = fresh(), b = fresh()
    defer { for d in [a, b] { try? FileManager.default.removeItem(at: d) } }
    let first = try SimulatePopulation(directory: a.path, count: 30, seed: 11, mix: mix, months: 8).run()
    let second = try SimulatePopulation(directory: b.path, count: 30, seed: 11, mix: mix, months: 8).run()
    #expect(first.notifications == second.notifications)
    #expect(first.skipped == second.skipped)
    let names = try FileManager.default.contentsOfDirectory(atPath: a.path).filter { !$0.hasPrefix(".subdash.lock") }.sorted()
    #expect(names == (try FileManager.default.contentsOfDirectory(atPath: b.path).filter { !$0.hasPrefix(".subdash.lock") }.sorted()))
    // What the population writes: a document for each subscriber, and a journal only for those
    // whose history passed StateFile.inlineHistoryLimit (a young subscriber's is inline); nothing else.
    let documents = try stateNames(a)
    #expect(documents.count == 30)
    let journals = try documents.compactMap { try StateFile.load(path: a.appendingPathComponent($0).path).document.journal?.file }
    #expect(names == (documents + journals).sorted())
    for name in names {
      #expect(try Data(contentsOf: a.appendingPathComponent(name)) == (try Data(contentsOf: b.appendingPathComponent(name))), "\(name)")
    }
  }

  /// A server looking a transaction up by id (Get Transaction Info, `serve`) must find one
  /// subscriber: no transactionId or order id is shared between two files of a population, for
  /// demo copies and new customers alike, after a run that renews, fails and resubscribes.
  @Test func noTwoSubscribersShareATransactionId() throws {
    var newCustomers = SimulatePopulation.Mix(failureRate: 0.3, autoRenewOff: 0.2)
    newCustomers.products = [.init("pass.family.monthly", 1)]
    for mix in [SimulatePopulation.Mix(failureRate: 0.3, autoRenewOff: 0.2), newCustomers] {
      let dir = fresh()
      defer { try? FileManager.default.removeItem(at: dir) }
      _ = try run(dir, count: 15, mix: mix)
      var owner: [String: String] = [:]
      for name in try stateNames(dir) {
        let state = try StateFile.load(path: dir.appendingPathComponent(name).path)
        var ids = Set(try state.subscriber.transactions.typed().flatMap { [$0.transactionId, $0.webOrderLineItemId] }.compactMap { $0 })
        for t in try historyTransactions(dir, name) {
          for key in ["transactionId", "webOrderLineItemId"] { if let v = t[key] as? String { ids.insert(v) } }
        }
        #expect(ids.count >= 2, "\(name) has a history")
        for id in ids {
          if let other = owner[id] { Issue.record("\(id) is in both \(other) and \(name)") }
          owner[id] = name
        }
      }
    }
  }

  @Test func aMixNamingAPlanTheCatalogLacksIsRefusedWithItsPath() throws {
    let dir = fresh()
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("mix.json")
    try Data(#"{"products": {"pass.family.monthly": 1, "pass.gold.weekly": 2}, "offerCodeRate": 0.2, "winBackAcceptance": 0.3}"#.utf8).write(to: file)
    let mix = try SimulatePopulation.Mix.read(file.path)
    #expect(mix.products.map(\.id) == ["pass.family.monthly", "pass.gold.weekly"])
    #expect(mix.offerCodeRate == 0.2 && mix.winBackAcceptance == 0.3)
    do { try SimulatePopulation.checkProducts(mix, mixPath: file.path); Issue.record("an unknown plan was accepted") } catch let e as SimulateInputError {
      #expect(e.message.hasPrefix(file.path + ": $.products.pass.gold.weekly is not a plan in the demo catalog"))
    }
    try Data(#"{"products": {"pass.family.monthly": 0}}"#.utf8).write(to: file)
    do { _ = try SimulatePopulation.Mix.read(file.path); Issue.record("a zero weight was accepted") } catch let e as SimulateInputError {
      #expect(e.message.contains("$.products.pass.family.monthly must be a weight above 0"))
    }
  }

  /// The list's last event for a simulated subscriber is the newest of its history, wherever that
  /// is (inline, where a young subscriber's whole history is, or in its journal), as the
  /// dashboard's events panel shows, not the last of the template's log it started from.
  @Test func theListsLastEventIsTheHistorysNewest() throws {
    let dir = fresh()
    defer { try? FileManager.default.removeItem(at: dir) }
    _ = try run(dir, count: 1, mix: .init(failureRate: 0, autoRenewOff: 0))
    let name = try #require(try stateNames(dir).first)
    let path = dir.appendingPathComponent(name).path
    // The history read here (inline, then journal), not through the list's own reader.
    let notes = try historyNotifications(dir, name)
    let dates = notes.compactMap(\.signedDate)
    #expect(dates.count == notes.count && dates == dates.sorted(), "the history is in date order, so its last is its newest")
    let newest = try #require(notes.last)
    let row = ListRow.read(path: path, file: name, nowOverride: nil, wall: Instant(ms: 0))
    #expect(row.lastEventDate == newest.signedDate)
    #expect(newest.notificationType.rawValue == "DID_RENEW" && newest.subtype == nil)
    #expect(row.lastEvent == "DID_RENEW")
    // Newer than anything in the template the subscriber was made from: six months were simulated.
    let template = try #require(try JSONSerialization.jsonObject(with: Data(DemoState.json.utf8)) as? [String: Any])
    let templateNotes = (template["subscriber"] as? [String: Any])?["notifications"] as? [[String: Any]] ?? []
    let templateNewest = try #require(templateNotes.compactMap { $0["signedDate"] as? Double }.max())
    #expect(try #require(row.lastEventDate).ms > templateNewest)
  }
}
