import DashModel
import Foundation
import Testing
@testable import DashRuntime
@testable import SubDash

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
    let names = try FileManager.default.contentsOfDirectory(atPath: a.path).filter { !$0.hasSuffix(".lock") }.sorted()
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
}
