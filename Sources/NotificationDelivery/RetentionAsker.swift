import AppStoreSigning
import AsyncHTTPClient
import DashModel
import Foundation
import NIOCore
import OutboundHTTP
import CoreValues
import SubscriberStorage
import RetentionMessaging

/// The App Store's side of a customer going to cancel, with the Retention Messaging API set up:
/// with a realtime URL it POSTs a signed realtime request there and waits at most `timeLimit` for
/// the developer's RealtimeResponseBody; whatever goes wrong (no answer in time, a status other
/// than 200, an answer Apple's rules refuse), and without a URL, the customer sees the default
/// message for the product and locale, else none (Apple: "If your server response fails for any
/// reason, the system displays a default retention message").
public struct RetentionAsker: Sendable {
  /// Apple's sandbox performance test asks the server to answer "within approximately 700 ms"
  /// (Initiate Performance Test); the same bound holds here for a customer's request.
  public static let appleTimeLimitMs = 700
  /// A RealtimeResponseBody is a few hundred bytes; a larger answer is not one.
  public static let answerLimit = 64 * 1024

  public let authority: LocalCertificateAuthority
  public let timeLimitMs: Int
  public let appAppleId: Int64?
  /// Where the nonces of accepted promotional offers are spent (`OfferNonceLedger`, one per
  /// directory of subscribers); nil: none is remembered.
  public let nonceLedger: String?

  public init(authority: LocalCertificateAuthority, timeLimitMs: Int = appleTimeLimitMs, appAppleId: Int64? = nil, nonceLedger: String? = nil) {
    self.authority = authority
    self.timeLimitMs = timeLimitMs
    self.appAppleId = appAppleId
    self.nonceLedger = nonceLedger
  }

  public func ask(_ customer: RetentionCustomer, setup: RetentionSetup, catalog: Catalog, now: Instant) async -> RetentionOutcome {
    guard let url = setup.realtimeURL else { return RealtimeAnswer.fallback(setup, customer, problem: nil) }
    let requestId = UUID().uuidString.lowercased()
    let payload: String
    do {
      payload = try RealtimeRequest.signedPayload(originalTransactionId: customer.originalTransactionId, productId: customer.productId,
                                                  userLocale: customer.userLocale, environment: customer.environment, appAppleId: appAppleId,
                                                  requestIdentifier: requestId, signedDate: now, authority: authority)
    } catch {
      return RealtimeAnswer.fallback(setup, customer, problem: "the request could not be signed: \(error)")
    }
    let started = DispatchTime.now()
    let reply = await Self.post(RealtimeRequest.body(payload), to: url, timeLimitMs: timeLimitMs)
    let elapsed = Int((DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000)
    switch reply {
    case .failed(let problem):
      return RealtimeAnswer.fallback(setup, customer, problem: problem, requestIdentifier: requestId, elapsedMs: elapsed)
    case .answered(let body):
      // A promotional offer is shown only when its signature verifies against the developer's
      // In-App Purchase key, signed within the offer's lifetime of the wall clock `now`, and
      // carries a nonce not spent before.
      let verifier = PromotionalOfferVerifier(keys: setup.inAppPurchaseKeys, now: now.ms / 1000)
      // A signature lives 24 hours (and may claim a time `skew` ahead), so a nonce is remembered that long.
      let window = Span(ms: (PromotionalOfferVerifier.lifetimeSeconds + verifier.skew) * 1000)
      let ledger = nonceLedger
      let check: PromotionalOfferCheck = { signature, customer in
        verifier.check(signature, for: customer).flatMap { Self.spendNonce(of: $0, signature, customer, ledger: ledger, now: now, window: window) }
      }
      switch RealtimeAnswer.offer(from: body, setup: setup, customer: customer, catalog: catalog, checkOffer: check) {
      case .success(let offer): return RetentionOutcome(offer: offer, requestIdentifier: requestId, elapsedMs: elapsed)
      case .failure(let refused):
        return RealtimeAnswer.fallback(setup, customer, problem: refused.reason, requestIdentifier: requestId, elapsedMs: elapsed)
      }
    }
  }

  /// Spends a verified offer's nonce: refused when an offer accepted within `window` carried it.
  static func spendNonce(of offer: SignedOffer, _ signature: PromotionalOfferSignature, _ customer: RetentionCustomer, ledger: String?,
                         now: Instant, window: Span) -> Result<SignedOffer, RefusedAnswer> {
    guard let ledger, let nonce = offer.nonce else { return .success(offer) }
    let field: String
    switch signature {
    case .v1: field = "promotionalOfferSignatureV1"
    case .v2: field = "promotionalOfferSignatureV2"
    }
    do throws(OfferNonceLedger.Failure) {
      switch try OfferNonceLedger.spend(nonce, originalTransactionId: customer.originalTransactionId, at: now, window: window, path: ledger) {
      case .fresh: return .success(offer)
      case .reused(let first):
        let whose = first.originalTransactionId.map { " for originalTransactionId \(LogText.clip($0))" } ?? ""
        return .failure(RefusedAnswer("answer refused: \(field): nonce \(nonce) was already used at \(first.spentAt)\(whose); "
                                      + "the App Store accepts a nonce once (sign each answer with a new UUID)"))
      }
    } catch {
      return .failure(RefusedAnswer("answer refused: \(field): the nonce could not be checked: \(error.description)"))
    }
  }

  /// One POST, its whole answer within the time limit (connecting included, BoundedExchange): the
  /// body of a 200, or why there is none, in a few words.
  static func post(_ body: [UInt8], to url: String, timeLimitMs: Int) async -> Reply {
    let limitMs = Int64(max(0, timeLimitMs))
    var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
    configuration.timeout = .init(connect: .milliseconds(limitMs), read: .milliseconds(limitMs))
    // One request with a short budget (Apple's is 700 ms): a refused connection is the answer
    // ("connection refused", at once), not something to retry until the budget is spent and then
    // report as "no answer within 700 ms". The customer sees the default message either way.
    configuration.connectionPool.retryConnectionEstablishment = false
    let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "application/json")
    request.headers.add(name: "User-Agent", value: "subdash-retention (Retention Messaging realtime request, local test CA)")
    request.body = .bytes(ByteBuffer(bytes: body))
    let reply: Reply
    switch await BoundedExchange.run(request, on: http, limit: .milliseconds(limitMs), bodyLimit: answerLimit) {
    case .success(let answer):
      if answer.status != 200 {
        reply = .failed("HTTP \(answer.status)")
      } else if !answer.bodyComplete {
        reply = .failed("the answer is larger than \(answerLimit / 1024) KiB")
      } else {
        reply = .answered(answer.body)
      }
    case .failure(.badURL(let why)):
      reply = .failed("realtime URL \(LogText.clip(url, limit: 80)): \(why)")
    case .failure(.timedOut):
      reply = .failed("no answer within \(timeLimitMs) ms")
    case .failure(.transport(let error)):
      reply = .failed(Self.describe(error, timeLimitMs: timeLimitMs))
    }
    try? await http.shutdown()
    return reply
  }

  enum Reply: Sendable {
    case answered([UInt8])
    case failed(String)
  }

  static func describe(_ error: Error, timeLimitMs: Int) -> String {
    let outcome = HTTPNotificationSender.classify(error)
    if outcome.result == .timedOut { return "no answer within \(timeLimitMs) ms" }
    return outcome.detail ?? outcome.result.rawValue
  }
}
