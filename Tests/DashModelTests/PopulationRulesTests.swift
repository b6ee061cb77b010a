import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage
@testable import SimulationRuns

/// The population's rules, in the model: the mix file, each member's ids and start, and the
/// moments of the mix's events, all drawn from seeds so a population is the same every time.
@Suite("Population rules", .timeLimit(.minutes(1)))
struct PopulationRulesTests {
  static func population(_ dir: TempDir, count: Int = 3, seed: UInt64 = 7, mix: PopulationMix = PopulationMix(), months: Int = 2) throws -> Population {
    Population(directory: dir.path, count: count, seed: seed, mix: mix, months: months, template: try Examples.text("active.json"))
  }

  @Test func aMixFileSetsWhatItNamesAndKeepsTheRest() throws {
    let mix = try PopulationMix.parse(Array(#"{"failureRate": 0.2, "products": {"pass.family.monthly": 3}, "winBackAcceptance": 1}"#.utf8), file: "mix.json")
    var expected = PopulationMix(failureRate: 0.2)
    expected.products = [.init("pass.family.monthly", 3)]
    expected.winBackAcceptance = 1
    #expect(mix == expected)
    #expect(mix.autoRenewOff == 0.10)
  }

  static let wrongMixes: [(text: String, message: String)] = [
    ("[1]", "mix.json: the mix must be a JSON object"),
    (#"{"failureRate": 2}"#, "mix.json: $.failureRate must be a number from 0 to 1"),
    (#"{"products": {"a": 0}}"#, "mix.json: $.products.a must be a weight above 0"),
    (#"{"products": []}"#, "mix.json: $.products must be an object of product ids and weights"),
    (#"{"churn": 0.1}"#, "mix.json: $.churn is not a mix setting (" + PopulationMix.keys + ")"),
  ]

  @Test(arguments: PopulationRulesTests.wrongMixes)
  func aWrongMixIsOneLineNamingTheFileAndKey(text: String, message: String) {
    #expect(throws: PopulationError(message)) { try PopulationMix.parse(Array(text.utf8), file: "mix.json") }
  }

  @Test func aPlanIsDrawnByWeight() {
    var mix = PopulationMix()
    mix.products = [.init("a", 1), .init("b", 3)]
    #expect(mix.plan(at: 0)?.id == "a")
    #expect(mix.plan(at: 0.24)?.id == "a")
    #expect(mix.plan(at: 0.26)?.id == "b")
    #expect(mix.plan(at: 0.999)?.id == "b")
  }

  @Test func eachMemberHasItsOwnIdsTokenAndSeed() throws {
    let dir = TempDir()
    let p = try Self.population(dir)
    try p.create()
    #expect(try p.subscribers() == ["4000000000000000.json", "4000000000000001.json", "4000000000000002.json"])
    var seeds = Set<UInt64>()
    for (i, name) in try p.subscribers().enumerated() {
      let s = try StateFile.load(path: dir.file(name))
      #expect(s.subscriber.originalTransactionId == String(name.dropLast(5)))
      #expect(s.subscriber.latestTransaction?.appAccountToken == "00000000-0000-4000-8000-00000000000\(i)")
      let settings = try Simulator.settings(s)
      seeds.insert(settings.seed)
      #expect(settings.transactionIdOffset == Population.idOffset(i))
      // The demo's history ids moved into the member's own range: no two members share one.
      let latest = try #require(s.subscriber.latestTransaction?.transactionId)
      #expect(latest.hasPrefix("2") && Int64(latest)! >= 2_000_000_000_000_000 + Population.idOffset(i))
    }
    #expect(seeds.count == 3)
  }

  @Test func aMixOfProductsMakesNewCustomersWhoBuyTheDrawnPlan() throws {
    let dir = TempDir()
    var mix = PopulationMix(failureRate: 0, autoRenewOff: 0)
    mix.products = [.init("pass.family.monthly", 1)]
    try Population.checkProducts(mix, template: try Examples.text("active.json"), mixPath: "mix.json")
    let p = try Self.population(dir, count: 2, mix: mix)
    try p.create()
    for name in try p.subscribers() {
      let s = try StateFile.load(path: dir.file(name))
      #expect(s.subscriber.latestTransaction?.productId == "pass.family.monthly")
      #expect(s.subscriber.latestTransaction?.originalTransactionId == String(name.dropLast(5)))
      #expect(s.historySummary.notificationCount == 1)  // SUBSCRIBED / INITIAL_BUY
    }
  }

  @Test func aMixNamingAPlanTheCatalogLacksIsRefusedBeforeAnyFile() throws {
    var mix = PopulationMix()
    mix.products = [.init("no.such.plan", 1)]
    #expect(throws: PopulationError.self) { try Population.checkProducts(mix, template: try Examples.text("active.json"), mixPath: "mix.json") }
  }

  @Test func theEventsMomentsComeFromTheMembersSeedAndLieInTheRun() throws {
    let dir = TempDir()
    var mix = PopulationMix(failureRate: 0, autoRenewOff: 0)
    mix.refundRate = 1
    mix.priceIncreaseRate = 1
    mix.priceIncreaseConsent = 0
    let p = try Self.population(dir, count: 1, mix: mix, months: 3)
    try p.create()
    let state = try StateFile.load(path: dir.file("4000000000000000.json"))
    let start = try #require(try Simulator.settings(state).now)
    let end = start + Span.days(90)
    let first = p.timeline(state, from: start, to: end)
    #expect(first.map(\.at) == p.timeline(state, from: start, to: end).map(\.at))
    #expect(first.flatMap(\.events).contains(.sim(.refund)))
    #expect(first.flatMap(\.events).contains(.sim(.declinePriceIncrease)))
    #expect(first.allSatisfy { $0.at >= start && $0.at < end })
    #expect(first.map(\.at) == first.map(\.at).sorted())
  }

  @Test func advancingAMemberMovesItsClockTheRunsLength() throws {
    let dir = TempDir()
    let p = try Self.population(dir, count: 1, mix: PopulationMix(failureRate: 0, autoRenewOff: 0), months: 2)
    try p.create()
    let before = try #require(try Simulator.settings(try StateFile.load(path: dir.file("4000000000000000.json"))).now)
    let tally = p.advance("4000000000000000.json")
    #expect(tally.failures.isEmpty)
    #expect(tally.subscriberMonths == 2)
    let after = try #require(try Simulator.settings(try StateFile.load(path: dir.file("4000000000000000.json"))).now)
    #expect(after == before + Span.days(60))
    #expect((tally.notifications["DID_RENEW"] ?? 0) >= 1)
  }
}
