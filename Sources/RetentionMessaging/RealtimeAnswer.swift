import CoreValues
import DashModel
/// The customer a realtime request is about (Apple's DecodedRealtimeRequestBody, less what the
/// App Store adds: appAppleId, requestIdentifier, signedDate).
public struct RetentionCustomer: Equatable, Sendable {
  public var originalTransactionId: String
  public var productId: String
  public var bundleId: String?
  public var userLocale: String
  public var environment: AppStoreEnvironment

  /// SubDash's locale: a state file keeps no device locale, so en-US unless asked (docs/simulation.md).
  public static let defaultLocale = "en-US"

  public init(originalTransactionId: String, productId: String, bundleId: String?, userLocale: String = defaultLocale,
              environment: AppStoreEnvironment = .sandbox) {
    self.originalTransactionId = originalTransactionId
    self.productId = productId
    self.bundleId = bundleId
    self.userLocale = userLocale
    self.environment = environment
  }

  /// The subscriber of `state`, going to cancel their current product; nil without a subscription.
  public init?(_ state: SubscriptionState, locale: String = defaultLocale) {
    guard let t = state.subscriber.latestTransaction, let original = state.subscriber.originalTransactionId, let product = t.productId else { return nil }
    originalTransactionId = original
    productId = product
    bundleId = t.bundleId
    userLocale = locale
    environment = state.subscriber.environment ?? .sandbox
  }
}

/// What the App Store makes of the developer's answer to a realtime request, by Apple's rules
/// (Retention Messaging API: RealtimeResponseBody, message, alternateProduct, promotionalOffer):
/// exactly one of the three; the message must exist and be APPROVED (every uploaded message is,
/// locally); a switch-plan or promotional-offer message must have no image; the alternate product
/// comes from the customer's subscription group; the promotional offer's signature verifies
/// against the developer's In-App Purchase key (`checkOffer`) and names an offer of the product.
/// Any failure means "the retention message fails", and the App Store shows the default message
/// instead.
public enum RealtimeAnswer {
  public static func offer(from body: [UInt8], setup: RetentionSetup, customer: RetentionCustomer, catalog: Catalog,
                           checkOffer: PromotionalOfferCheck) -> Result<RetentionOffer, RefusedAnswer> {
    guard case .object(let o)? = try? JSONParser.parse(body) else { return .failure(RefusedAnswer("answer refused: the body is not a JSON object")) }
    let chosen = ["message", "alternateProduct", "promotionalOffer", "advancedCommerceInfo"].filter { o[$0] != nil }
    guard chosen.count == 1 else {
      return .failure(RefusedAnswer(chosen.isEmpty ? "answer refused: none of message, alternateProduct, promotionalOffer"
                                     : "answer refused: \(chosen.joined(separator: " and ")) are mutually exclusive"))
    }
    guard let part = o[chosen[0]]?.objectValue else { return .failure(RefusedAnswer("answer refused: \(chosen[0]) is not an object")) }
    if chosen[0] == "advancedCommerceInfo" {
      return .failure(RefusedAnswer("answer refused: advancedCommerceInfo is for Advanced Commerce subscriptions only"))
    }
    guard let rawId = part["messageIdentifier"]?.stringValue else { return .failure(RefusedAnswer("answer refused: \(chosen[0]).messageIdentifier is missing")) }
    let id = rawId.lowercased()
    guard let message = setup.messages[id] else { return .failure(RefusedAnswer("answer refused: message \(clip(rawId)) was never uploaded")) }
    switch chosen[0] {
    case "message":
      return .success(RetentionOffer(kind: .message, source: .realtime, messageIdentifier: id, message: message))
    case "alternateProduct":
      if message.hasImage { return .failure(RefusedAnswer("answer refused: a switch-plan message must have no image")) }
      guard let product = part["productId"]?.stringValue else { return .failure(RefusedAnswer("answer refused: alternateProduct.productId is missing")) }
      if let problem = sameGroup(product, customer, catalog) { return .failure(RefusedAnswer(problem)) }
      guard product != customer.productId else { return .failure(RefusedAnswer("answer refused: the alternate product is the customer's own product")) }
      return .success(RetentionOffer(kind: .alternateProduct(productId: product), source: .realtime, messageIdentifier: id, message: message))
    default:
      if message.hasImage { return .failure(RefusedAnswer("answer refused: a promotional-offer message must have no image")) }
      let signed: SignedOffer
      switch PromotionalOfferSignature.read(part).flatMap({ checkOffer($0, customer) }) {
      case .failure(let problem): return .failure(problem)
      case .success(let s): signed = s
      }
      let (product, offerId) = (signed.productId, signed.offerIdentifier)
      if let problem = sameGroup(product, customer, catalog) { return .failure(RefusedAnswer(problem)) }
      guard catalog.product(product)?.promotionalOffers.contains(where: { $0.id == offerId }) == true else {
        return .failure(RefusedAnswer("answer refused: \(clip(product)) has no promotional offer \(clip(offerId))"))
      }
      return .success(RetentionOffer(kind: .promotionalOffer(productId: product, offerId: offerId), source: .realtime, messageIdentifier: id, message: message))
    }
  }

  /// The default message for the customer's product and locale (Apple shows it whenever the
  /// realtime answer fails, or when no realtime URL is set), else none.
  public static func fallback(_ setup: RetentionSetup, _ customer: RetentionCustomer, problem: String?, requestIdentifier: String? = nil,
                              elapsedMs: Int? = nil) -> RetentionOutcome {
    let offer = setup.defaultMessage(productId: customer.productId, locale: customer.userLocale).map {
      RetentionOffer(kind: .message, source: .defaultMessage, messageIdentifier: $0.id, message: $0.message)
    }
    return RetentionOutcome(offer: offer, problem: problem, requestIdentifier: requestIdentifier, elapsedMs: elapsedMs)
  }

  private static func sameGroup(_ product: String, _ customer: RetentionCustomer, _ catalog: Catalog) -> String? {
    guard catalog.product(product) != nil else { return "answer refused: product \(clip(product)) is not in the catalog" }
    guard let group = catalog.group(of: customer.productId), group.id == catalog.group(of: product)?.id else {
      return "answer refused: \(clip(product)) is not in the customer's subscription group"
    }
    return nil
  }

  private static func clip(_ s: String) -> String { LogText.clipKeepingLetters(s) }
}

/// Why the App Store did not show what the developer's server answered (then the default message).
public struct RefusedAnswer: Error, Equatable, Sendable {
  public let reason: String
  public init(_ reason: String) { self.reason = reason }
}
