import CoreValues
import DashModel
import RetentionMessaging
/// A scenario script: a line-based list of steps and expectations (docs/simulation.md has the
/// full grammar). Parsing is separate from running so a bad script is rejected, with its line,
/// before anything is written.
public struct Scenario: Equatable, Sendable {
  /// The script's file name, for messages (`steady.scenario:12: …`).
  public var fileName: String
  public var lines: [ScenarioLine]

  public init(fileName: String, lines: [ScenarioLine]) {
    self.fileName = fileName
    self.lines = lines
  }

  /// True when the script builds its own starting file (a `catalog` or `state` line).
  public var createsFile: Bool {
    lines.contains { if case .setup = $0.step { return true } else { return false } }
  }
}

public struct ScenarioLine: Equatable, Sendable {
  public var number: Int
  public var text: String
  public var step: ScenarioStep
}

public enum ScenarioStep: Equatable, Sendable {
  /// Creates the state file: from a catalog (a new subscriber) or a copy of a state file.
  case setup(ScenarioSetup)
  /// Sets the virtual clock before anything happened.
  case start(Instant)
  case setting(SettingChange)
  /// Declares a custom offer code string for a catalog code offer (its reference name).
  case code(code: String, offerReference: String, limit: Int?)
  case buy(PurchaseRequest)
  case plan(PlanAction)
  case command(SimCommand)
  case refund(RevocationReason)
  /// `purchaserRefund`: the purchaser's refund revoked this family member (reason copied).
  case revokeFamilySharing(purchaserRefund: RevocationReason?)
  case forceRenewal
  case requestPriceIncrease(newPriceMilli: Int64?, consentRequired: Bool)
  case advance(AdvanceAmount)
  case advanceTo(Instant)
  case advanceEvents(Int)
  case expect(Expectation)
  /// `retention …`: the developer's Retention Messaging configuration (ScenarioRetention).
  case retentionSetup(RetentionSetupChange)
  /// `cancel-page …`: the customer goes to cancel and chooses.
  case goToCancel(RetentionChoice)
}

public enum ScenarioSetup: Equatable, Sendable {
  /// A catalog (.storekit) path, relative to the script.
  case catalog(String)
  /// A state file path, relative to the script.
  case stateFile(String)
}

public enum AdvanceAmount: Equatable, Sendable {
  /// Calendar months and years (and weeks or days written that way) from the clock.
  case period(ISOPeriod)
  case span(Span)
}

public enum SettingChange: Equatable, Sendable {
  case rate(String)
  case grace(GraceSetting)
  case graceRenewalType(GraceRenewalType)
  case seed(UInt64)
  case outcomes([RenewalOutcome])
  case failRenewals(Bool)
  case failureRate(Double)
  case askToBuy(Bool)
  case renewalCap(RenewalCap)
  case environment(AppStoreEnvironment)
}

/// What a script checks. A mismatch stops `--check` with the script line and both values.
public enum Expectation: Equatable, Sendable {
  /// Apple's status 1…5 at the clock; nil = never subscribed.
  case status(SubscriptionStatus?)
  /// The next notification not yet checked.
  case notification(NotificationLabel)
  /// The most recent notification; everything before it counts as checked.
  case lastNotification(NotificationLabel)
  /// Every notification so far has been checked.
  case noMoreNotifications
  case access(Bool)
  case product(String)
  case renewalProduct(String)
  case autoRenew(Bool)
  case expires(Instant)
  case gracePeriodExpires(Instant?)
  case clock(Instant)
  case price(Int64)
  case renewalPrice(Int64)
  case expirationIntent(ExpirationIntent?)
  case offer(OfferType?)
  case winBack([String])
  case priceIncreaseStatus(PriceIncreaseStatus?)
  case revocationReason(RevocationReason?)
  /// `revocationType`, and `revocationPercentage` when given.
  case revocationType(RevocationType?, percentage: Int?)
  /// The step before this line was refused, with a message containing this text.
  case error(String)
  /// The latest transaction's `billingPlanType` (nil: none).
  case billingPlan(BillingPlanType?)
  /// `commitmentInfo.billingPeriodNumber` of `totalBillingPeriods` of the latest transaction.
  case commitmentPayment(number: Int, total: Int)
  /// Neither the latest transaction nor the renewal info carries a `commitmentInfo`.
  case noCommitment
  /// `expect payment none`: billed MONTHLY with `commitmentInfo` but no payment number yet (the
  /// free trial before payment 1).
  case commitmentBeforeFirstPayment
  /// `commitmentInfo.commitmentExpiresDate` of the latest transaction.
  case commitmentEnds(Instant)
  /// The renewal info's `commitmentInfo.commitmentAutoRenewStatus`.
  case commitmentAutoRenew(Bool)
  /// The header the last `cancel-page` showed (nil: no retention message).
  case retention(String?)
  /// `expect member NAME renews|expires DATE`: a family member beside the state file.
  case member(String, MemberDate, Instant)
}

/// `DID_FAIL_TO_RENEW / GRACE_PERIOD`: a type and an optional subtype. A label without a subtype
/// matches only a notification without one, so `DID_RENEW` never passes for BILLING_RECOVERY.
public struct NotificationLabel: Equatable, Sendable, CustomStringConvertible {
  public var type: NotificationType
  public var subtype: NotificationSubtype?
  public init(type: NotificationType, subtype: NotificationSubtype?) {
    self.type = type
    self.subtype = subtype
  }
  public func matches(_ n: NotificationRecord) -> Bool { n.notificationType == type && n.subtype == subtype }
  public var description: String { subtype.map { "\(type) / \($0)" } ?? type.rawValue }
}
