import CoreValues
/// The settings resolved against the catalog's `.storekit` defaults: what the engine obeys.
public struct SimulationRules: Equatable, Sendable {
  public var rate: SimulationRate
  public var grace: GraceSetting
  public var graceRenewalType: GraceRenewalType
  public var failRenewals: Bool
  public var askToBuy: Bool
  /// Renewals allowed after a purchase before auto-renew turns off; nil = no cap.
  public var renewalCap: Int?

  public init(settings: SimulationSettings, catalog: Catalog) throws(DecodeError) {
    let path = JSONPath.root.appending("simulation")
    if let name = settings.timeRate {
      do { rate = try SimulationRate(parsing: name) } catch {
        throw DecodeError(path.appending("timeRate"), error.reason)
      }
    } else if let raw = catalog.settings.timeRate {
      do { rate = .storeKitTest(try TimeRate(storeKitValue: raw)) } catch {
        throw DecodeError(JSONPath.root.appending("catalog").appending("settings").appending("_timeRate"), error.reason)
      }
    } else {
      rate = .storeKitTest(.realTime)
    }
    grace = settings.gracePeriod ?? (catalog.settings.billingGracePeriodEnabled ? .storeKit : .off)
    graceRenewalType = settings.graceRenewalType ?? .allRenewals
    failRenewals = settings.failRenewals ?? catalog.settings.renewalBillingIssuesEnabled
    askToBuy = settings.askToBuy ?? catalog.settings.askToBuyEnabled
    renewalCap = settings.sandboxRenewalCap.map(\.limit) ?? rate.renewalCap
  }

  /// Wall-clock grace for a subscription of `period`, nil when there is none. Grace never
  /// outlasts billing retry: the App Store stops retrying at the end of retry whatever grace says.
  public func graceLength(for period: ISOPeriod, endingFreeOffer: Bool) -> Span? {
    if endingFreeOffer && graceRenewalType == .paidToPaidOnly { return nil }
    let length: Span
    switch grace {
    case .off: return nil
    case .storeKit: length = rate.gracePeriod(for: period)
    case .length(let s): length = rate.wallClock(for: Self.productionGrace(s, period: period), period: period)
    }
    return min(length, retryLength)
  }

  /// The longest grace a weekly subscription gets when 16 or 28 days are chosen in App Store
  /// Connect: 6 days (Apple's 2019 announcement, "six days for weekly subscriptions"; later
  /// summaries say it "caps at 6 days even if you choose 16 or 28 days", not confirmed on an
  /// Apple page; StoreKit testing uses the same 6 days in real time). storekit-reference.md §3.
  public static let weeklyGraceCap = Span.days(6)

  /// Production grace for `period`: the chosen length, capped at 6 days for periods shorter
  /// than a month (3 days stays 3).
  public static func productionGrace(_ chosen: Span, period: ISOPeriod) -> Span {
    period.isShorterThanAMonth ? min(chosen, weeklyGraceCap) : chosen
  }

  public var retryLength: Span { rate.billingRetry }

  /// Wall-clock length of `span` of subscription time (for scripted recoveries).
  public func scaled(_ span: Span, period: ISOPeriod) -> Span { rate.wallClock(for: span, period: period) }
}
