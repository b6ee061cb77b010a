import CoreValues
import DashModel
import SubscriberStorage
/// What a simulated population is made of (`subdash simulate --population N --mix FILE`: a JSON
/// object with these keys, all optional).
public struct PopulationMix: Equatable, Sendable {
  /// Chance that a renewal fails with a billing issue (the engine's `failureRate`).
  public var failureRate = 0.05
  /// Share of subscribers who turned auto-renew off (voluntary churn at their next renewal).
  public var autoRenewOff = 0.10
  /// Shares of subscribers to whom each happens once, at a random moment of the run (drawn from
  /// the subscriber's own seed): a refund; a price increase (of which `priceIncreaseConsent`
  /// consent, the others decline and expire at renewal); an upgrade to the group's top level.
  public var refundRate = 0.0
  public var priceIncreaseRate = 0.0
  public var priceIncreaseConsent = 0.5
  public var upgradeRate = 0.0
  /// Starting plans by weight (`{"pass.family.monthly": 3, "pass.premium.annual": 1}`). Without
  /// it every subscriber is a copy of the template subscriber; with it each is a new customer who
  /// buys the drawn plan at the start (SUBSCRIBED / INITIAL_BUY), taking its introductory offer
  /// when eligible for `introOfferRate` of them.
  public var products: [Plan] = []
  public var introOfferRate = 1.0
  /// Share of subscribers who redeem one of the file's offer codes once during the run (the
  /// code drawn from the file's codes; one the subscriber is not eligible for is skipped).
  public var offerCodeRate = 0.0
  /// Share of subscribers who, once lapsed and offered a win-back offer, accept it (checked at
  /// every 30 days of the run).
  public var winBackAcceptance = 0.0
  /// Of the members who go to cancel and are shown an alternate product or a promotional offer
  /// (Retention Messaging), the share who take it and the share who keep their subscription; the
  /// rest cancel. A plain message can only be kept (`retentionKeep`) or not. SubDash's defaults.
  public var retentionAccept = 0.3
  public var retentionKeep = 0.2

  public static let keys = "failureRate, autoRenewOff, refundRate, priceIncreaseRate, priceIncreaseConsent, upgradeRate, products, introOfferRate, offerCodeRate, winBackAcceptance, retentionAccept, retentionKeep"

  public init(failureRate: Double = 0.05, autoRenewOff: Double = 0.10) {
    self.failureRate = failureRate
    self.autoRenewOff = autoRenewOff
  }

  /// A starting plan and its weight among the mix's plans.
  public struct Plan: Equatable, Sendable {
    public var id: String
    public var weight: Double
    public init(_ id: String, _ weight: Double) {
      self.id = id
      self.weight = weight
    }
  }

  /// Reads a mix file's bytes; `file` names it in the one-line error.
  public static func parse(_ bytes: [UInt8], file: String) throws(PopulationError) -> PopulationMix {
    guard case .object(let o)? = try? JSONParser.parse(bytes) else { throw PopulationError("\(file): the mix must be a JSON object") }
    var mix = PopulationMix()
    for (key, value) in o.entries {
      if key == "products" {
        guard case .object(let weights) = value, !weights.entries.isEmpty else {
          throw PopulationError("\(file): $.products must be an object of product ids and weights")
        }
        for (id, w) in weights.entries {
          guard case .number(let text) = w, let x = Double(text), x > 0, x.isFinite else {
            throw PopulationError("\(file): $.products.\(id) must be a weight above 0")
          }
          mix.products.append(Plan(id, x))
        }
        continue
      }
      guard case .number(let text) = value, let x = Double(text), (0...1).contains(x) else {
        throw PopulationError("\(file): $.\(key) must be a number from 0 to 1")
      }
      switch key {
      case "failureRate": mix.failureRate = x
      case "autoRenewOff": mix.autoRenewOff = x
      case "refundRate": mix.refundRate = x
      case "priceIncreaseRate": mix.priceIncreaseRate = x
      case "priceIncreaseConsent": mix.priceIncreaseConsent = x
      case "upgradeRate": mix.upgradeRate = x
      case "introOfferRate": mix.introOfferRate = x
      case "offerCodeRate": mix.offerCodeRate = x
      case "winBackAcceptance": mix.winBackAcceptance = x
      case "retentionAccept": mix.retentionAccept = x
      case "retentionKeep": mix.retentionKeep = x
      default: throw PopulationError("\(file): $.\(key) is not a mix setting (\(keys))")
      }
    }
    guard mix.retentionAccept + mix.retentionKeep <= 1 else {
      throw PopulationError("\(file): $.retentionAccept and $.retentionKeep are shares of the same members and add up to more than 1")
    }
    return mix
  }

  /// The plan drawn for `x` in 0..<1, by weight.
  func plan(at x: Double) -> Plan? {
    var left = x * products.reduce(0) { $0 + $1.weight }
    return products.first { left -= $0.weight; return left < 0 } ?? products.last
  }
}

/// Bad population input (a mix, a template), or a population file that could not be written: one line.
public struct PopulationError: Error, Equatable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
