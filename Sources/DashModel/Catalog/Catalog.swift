import CoreValues
/// The products a subscriber is measured against, in the shape of an Xcode `.storekit` file:
/// subscription groups holding subscriptions with a level (`groupNumber`, 1 = highest), a period,
/// a price and their offers.
public struct Catalog: Equatable, Sendable {
  public var groups: [SubscriptionGroup]
  public var settings: StoreKitSettings
  /// `major.minor` of the .storekit format, when the catalog came from one (3.0, 4.0, 5.0).
  public var formatVersion: String?
  /// Built by `subdash import` from transactions, not from a .storekit file: levels are unknown,
  /// so plan actions refuse to run (`_derivedFromTransactions`, docs/import.md).
  public var derivedFromTransactions: Bool
  /// Consumables, non-consumables and non-renewing subscriptions: listed, never plans to switch to.
  public var otherProducts: [OtherProduct] = []

  public init(groups: [SubscriptionGroup], settings: StoreKitSettings = StoreKitSettings(), formatVersion: String? = nil, derivedFromTransactions: Bool = false) {
    self.groups = groups
    self.settings = settings
    self.formatVersion = formatVersion
    self.derivedFromTransactions = derivedFromTransactions
  }

  public var allSubscriptions: [SubscriptionProduct] { groups.flatMap(\.subscriptions) }

  public func product(_ id: String?) -> SubscriptionProduct? {
    guard let id else { return nil }
    for g in groups { if let p = g.subscriptions.first(where: { $0.productID == id }) { return p } }
    return nil
  }

  /// The consumable, non-consumable or non-renewing subscription with this id.
  public func otherProduct(_ id: String?) -> OtherProduct? {
    guard let id else { return nil }
    return otherProducts.first { $0.productID == id }
  }

  public func group(of productId: String?) -> SubscriptionGroup? {
    guard let productId else { return nil }
    return groups.first { $0.subscriptions.contains { $0.productID == productId } }
  }
}

public struct SubscriptionGroup: Equatable, Sendable {
  public var id: String
  public var name: String
  public var subscriptions: [SubscriptionProduct]

  /// Tiers ordered from the highest level (1) down, ties by price descending then id.
  public var tiers: [SubscriptionProduct] {
    subscriptions.sorted {
      ($0.level, -$0.priceMilli, $0.productID) < ($1.level, -$1.priceMilli, $1.productID)
    }
  }
}

public struct SubscriptionProduct: Equatable, Sendable {
  public var productID: String
  public var referenceName: String
  public var displayName: String
  public var groupID: String
  /// `groupNumber` in .storekit, `groupLevel` in StoreKit: 1 is the highest level of service.
  public var level: Int
  /// ISO 8601 duration such as P1M.
  public var period: String
  public var displayPrice: String
  public var priceMilli: Int64
  public var familyShareable: Bool
  public var introductoryOffers: [SubscriptionOffer]
  public var promotionalOffers: [SubscriptionOffer]
  public var codeOffers: [CodeOffer]
  public var winBackOffers: [WinBackOffer]
  /// False for a product `subdash import` derived from transactions that carried no price or no
  /// recognisable period length (`_priceKnown` / `_periodKnown`): the screen says "unknown"
  /// rather than a made-up 0.00 or 1 month.
  public var priceKnown = true
  public var periodKnown = true
  /// The "Monthly with 12-Month Commitment" billing plan of a one-year product, when enabled
  /// (`.storekit` format 5 `billingPlans`); the product's own price is the up-front plan.
  public var monthlyPlan: MonthlyBillingPlan? = nil
}

/// A one-year product billed in 12 monthly payments (Apple, "Supporting monthly subscriptions with
/// a 12-month commitment": the monthly plan is added to an existing yearly product, same product
/// id; StoreKit's pricing terms give the monthly `billingDisplayPrice` and the commitment's total).
public struct MonthlyBillingPlan: Equatable, Sendable {
  public static let billingPeriods = 12
  /// Each monthly payment (`displayPrice` of the MONTHLY plan).
  public var monthlyPriceMilli: Int64
  /// The whole commitment (`commitmentDisplayPrice`; 12 × the monthly price when absent).
  public var commitmentPriceMilli: Int64
  public init(monthlyPriceMilli: Int64, commitmentPriceMilli: Int64) {
    self.monthlyPriceMilli = monthlyPriceMilli
    self.commitmentPriceMilli = commitmentPriceMilli
  }
}

public enum PaymentMode: String, Equatable, Sendable {
  case freeTrial = "free"
  case payAsYouGo
  case payUpFront

  /// The App Store Server API's `offerDiscountType` for this mode.
  public var discountType: OfferDiscountType {
    switch self {
    case .freeTrial: return .freeTrial
    case .payAsYouGo: return .payAsYouGo
    case .payUpFront: return .payUpFront
    }
  }

  public var label: String {
    switch self {
    case .freeTrial: return "free trial"
    case .payAsYouGo: return "pay as you go"
    case .payUpFront: return "pay up front"
    }
  }
}

/// An introductory or promotional offer, or the terms of an offer code.
public struct SubscriptionOffer: Equatable, Sendable {
  /// offerID for promotional offers; the reference name for codes; internalID otherwise.
  public var id: String
  public var referenceName: String
  public var paymentMode: PaymentMode
  /// Length of one offer period (ISO 8601).
  public var period: String
  public var numberOfPeriods: Int
  /// Price per period for pay-as-you-go, total for pay-up-front, 0 for a free trial.
  public var priceMilli: Int64
  /// The billing plan the offer belongs to (`.storekit` format 5 `billingPlanType`; Apple: offers
  /// "are specific to each billing plan"). nil: the up-front plan, as in older files.
  public var billingPlanType: BillingPlanType? = nil
}

public enum CodeEligibility: String, Equatable, Hashable, Sendable, CaseIterable {
  case new, existing, expired
}

public struct CodeOffer: Equatable, Sendable {
  public var terms: SubscriptionOffer
  public var eligibility: Set<CodeEligibility>
  public var isStackable: Bool
  /// The reference name is what Apple puts in `offerIdentifier` for offer codes.
  public var referenceName: String { terms.referenceName }
}

/// A win-back offer, modelled on App Store Connect's WinBackOffer attributes (there is no public
/// .storekit example of one; see docs/state-file.md for the inline form).
public struct WinBackOffer: Equatable, Sendable {
  public enum Priority: String, Sendable { case high = "HIGH", normal = "NORMAL" }
  public var offerId: String
  public var referenceName: String
  public var productId: String
  public var paymentMode: PaymentMode
  public var period: String
  public var periodCount: Int
  public var priceMilli: Int64
  public var paidSubscriptionMonths: Int
  public var monthsSinceLastSubscribedMin: Int
  public var monthsSinceLastSubscribedMax: Int?
  public var waitBetweenOffersMonths: Int?
  public var startDate: Instant?
  public var endDate: Instant?
  public var priority: Priority
  /// The billing plan the offer belongs to (`billingPlanType`, as on other offers): nil, the
  /// up-front plan; MONTHLY resubscribes to the monthly plan with a 12-month commitment.
  public var billingPlanType: BillingPlanType? = nil
}

/// The `settings` block of a .storekit file (the keys Xcode's StoreKit testing reads).
public struct StoreKitSettings: Equatable, Sendable {
  public var billingGracePeriodEnabled: Bool = false
  public var renewalBillingIssuesEnabled: Bool = false
  public var askToBuyEnabled: Bool = false
  public var timeRate: Int? = nil
  public var storefront: String? = nil
  public var locale: String? = nil
  public init() {}
}

extension Catalog {
  /// What a plan action says on a catalog `subdash import` derived from transactions (it has no
  /// levels, so every plan action would guess), and what the import says after writing one.
  public static let noCatalogMessage = "no catalog: attach one with --catalog app.storekit"
}
