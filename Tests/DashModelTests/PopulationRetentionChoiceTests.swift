import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage
@testable import SimulationRuns
@testable import RetentionMessaging

/// Population members who go to cancel and are shown a retention offer sometimes take it,
/// sometimes keep their subscription, sometimes cancel: drawn from each member's seed, applied as
/// the dashboard's keys apply them, counted per member (issue 21 §2).
@Suite("Population members choose on the cancel page", .timeLimit(.minutes(1)))
struct PopulationRetentionChoiceTests {
  static let premium = RetentionOffer(kind: .alternateProduct(productId: "pass.premium.monthly"), source: .realtime, messageIdentifier: "m1",
                                      message: .init(header: "Premium for a little more", body: "Every feeder, every bird."))
  static let stay = RetentionOffer(kind: .message, source: .realtime, messageIdentifier: "m2",
                                   message: .init(header: "Stay with the birds", body: "Your feeders miss you."))

  /// Everyone churns and sees `offer` on the cancel page.
  static func run(_ dir: TempDir, offer: RetentionOffer, mix: PopulationMix? = nil, seed: UInt64 = 7) throws -> [Population.RetentionShown] {
    var m = mix ?? PopulationMix(failureRate: 0, autoRenewOff: 1)
    m.autoRenewOff = 1
    var population = Population(directory: dir.path, count: 30, seed: seed, mix: m, months: 1, template: try Examples.text("active.json"))
    population.retentionAsker = { _ in .success(RetentionOutcome(offer: offer)) }
    return try population.create()
  }

  static func state(_ dir: TempDir, _ name: String) throws -> SubscriptionState { try StateFile.load(path: dir.file(name)) }

  @Test func shownAnAlternateProductSomeSwitchSomeKeepSomeCancelAndEachFileSaysSo() throws {
    let dir = TempDir()
    let shown = try Self.run(dir, offer: Self.premium)
    let choices = Dictionary(grouping: shown, by: \.choice).mapValues(\.count)
    #expect(choices[.accept, default: 0] > 0 && choices[.keep, default: 0] > 0 && choices[.cancel, default: 0] > 0, "\(choices)")
    for member in shown {
      let s = try Self.state(dir, member.name)
      let renewal = s.subscriber.renewalInfo
      switch member.choice {
      case .accept:
        // An upgrade takes effect at once (Apple's timing for a higher level).
        #expect(s.subscriber.latestTransaction?.productId == "pass.premium.monthly", "\(member.name)")
        #expect(renewal?.autoRenewStatus == .on)
      case .keep:
        #expect(s.subscriber.latestTransaction?.productId == "pass.family.monthly" && renewal?.autoRenewStatus == .on, "\(member.name)")
      case .cancel:
        #expect(s.subscriber.latestTransaction?.productId == "pass.family.monthly" && renewal?.autoRenewStatus == .off, "\(member.name)")
      }
      #expect(member.acceptRefused == nil)
    }
  }

  @Test func theSameSeedMakesTheSameChoices() throws {
    let (a, b) = (TempDir(), TempDir())
    #expect(try Self.run(a, offer: Self.premium).map(\.choice) == (try Self.run(b, offer: Self.premium).map(\.choice)))
  }

  @Test func aPlainMessageOffersNothingToTakeSoMembersKeepOrCancel() throws {
    let dir = TempDir()
    let shown = try Self.run(dir, offer: Self.stay)
    #expect(!shown.contains { $0.choice == .accept })
    #expect(shown.contains { $0.choice == .keep } && shown.contains { $0.choice == .cancel })
  }

  @Test func theMixSetsTheShares() throws {
    var everyone = PopulationMix(failureRate: 0, autoRenewOff: 1)
    everyone.retentionAccept = 1
    everyone.retentionKeep = 0
    #expect(try Self.run(TempDir(), offer: Self.premium, mix: everyone).allSatisfy { $0.choice == .accept })
    everyone.retentionAccept = 0
    #expect(try Self.run(TempDir(), offer: Self.premium, mix: everyone).allSatisfy { $0.choice == .cancel })
    let mix = try PopulationMix.parse(Array(#"{"retentionAccept": 0.5, "retentionKeep": 0.25}"#.utf8), file: "mix.json")
    #expect(mix.retentionAccept == 0.5 && mix.retentionKeep == 0.25)
    #expect(throws: PopulationError.self) { try PopulationMix.parse(Array(#"{"retentionAccept": 0.8, "retentionKeep": 0.4}"#.utf8), file: "mix.json") }
  }

  @Test func anOfferTheRulesRefuseIsCancelledWithTheReasonCounted() throws {
    var everyone = PopulationMix(failureRate: 0, autoRenewOff: 1)
    everyone.retentionAccept = 1
    let unknown = RetentionOffer(kind: .promotionalOffer(productId: "pass.family.monthly", offerId: "no_such_offer"), source: .realtime,
                                 messageIdentifier: "m3", message: .init(header: "h", body: "b"))
    let dir = TempDir()
    let shown = try Self.run(dir, offer: unknown, mix: everyone)
    #expect(shown.allSatisfy { $0.choice == .cancel && $0.acceptRefused != nil })
    #expect(try Self.state(dir, shown[0].name).subscriber.renewalInfo?.autoRenewStatus == .off)
  }
}
