import AppStoreSigning
import Crypto
import DashModel
import Foundation
import Hummingbird
import Logging
import NIOCore
import NotificationDelivery
import Testing
import CoreValues
import SubscriberStorage
import RetentionMessaging

/// A developer's Get Retention Message endpoint on loopback: answers what the test scripts (after
/// an optional delay) and keeps each request's signedPayload.
final class RealtimeEndpoint: @unchecked Sendable {
  private let lock = NSLock()
  private var payloads: [String] = []
  let status: Int
  let answer: String
  let delayMs: Int

  init(answer: String, status: Int = 200, delayMs: Int = 0) {
    self.answer = answer
    self.status = status
    self.delayMs = delayMs
  }

  var received: [String] { lock.withLock { payloads } }

  func serve<T: Sendable>(_ body: @escaping @Sendable (String) async throws -> T) async throws -> T {
    let router = Router()
    router.post("/retention") { request, _ -> Response in
      let bytes = try await request.body.collect(upTo: 1 << 20)
      let outer = try? JSONSerialization.jsonObject(with: Data(buffer: bytes)) as? [String: Any]
      self.lock.withLock { self.payloads.append(outer?["signedPayload"] as? String ?? "") }
      if self.delayMs > 0 { try? await Task.sleep(nanoseconds: UInt64(self.delayMs) * 1_000_000) }
      return Response(status: .init(code: self.status), headers: [.contentType: "application/json"],
                      body: .init(byteBuffer: ByteBuffer(string: self.answer)))
    }
    let (urls, continuation) = AsyncStream.makeStream(of: String.self)
    var logger = Logger(label: "test-realtime")
    logger.logLevel = .critical
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                          onServerRunning: { channel in continuation.yield("http://127.0.0.1:\(channel.localAddress?.port ?? 0)/retention") },
                          logger: logger)
    return try await withThrowingTaskGroup(of: T?.self) { group in
      group.addTask { try await app.runService(); return nil }
      var iterator = urls.makeAsyncIterator()
      guard let url = await iterator.next() else { throw CancellationError() }
      let result = try await body(url)
      group.cancelAll()
      return result
    }
  }
}

/// A customer of Examples/active.json (Family Monthly) going to cancel, with messages uploaded as
/// `subdash serve` keeps them.
struct RetentionScene {
  static let ca = DeliveryFixture.ca
  static let stay = "11111111-1111-4111-8111-111111111111"
  static let premium = "22222222-2222-4222-8222-222222222222"
  static let fallback = "33333333-3333-4333-8333-333333333333"
  let fixture: DeliveryFixture

  /// The developer's In-App Purchase key, whose public half `subdash serve` records beside the
  /// files (RetentionMessagingStore) for the App Store to check promotional offers with.
  static let developerKey = P256.Signing.PrivateKey()
  static let keyId = "ABCDEFGHIJ"
  static let issuer = "57246542-96fe-1a63-e053-0824d011072a"

  init(url: String?, withDefault: Bool = true) throws {
    fixture = try DeliveryFixture()
    var config: [String: Any] = [
      "messages": [
        ["messageIdentifier": Self.stay, "message": ["header": "Stay with the birds", "body": "Your feeders miss you.",
                                                     "bulletPoints": [["text": "Every backyard"], ["text": "Rare birds alerts"]]]],
        ["messageIdentifier": Self.premium, "message": ["header": "Try Premium instead", "body": "Every feeder, every bird."]],
        ["messageIdentifier": Self.fallback, "message": ["header": "Before you go", "body": "Birds are back in spring."]],
      ],
      "defaults": withDefault ? [["key": "pass.family.monthly/en-US", "messageIdentifier": Self.fallback]] : [],
      "inAppPurchaseKeys": [["keyId": Self.keyId, "issuerId": Self.issuer, "bundleId": "com.example.birdwatch",
                             "publicKey": Self.developerKey.publicKey.pemRepresentation]],
    ]
    if let url { config["realtimeURL"] = url }
    let path = fixture.directory + "/" + RetentionSetup.fileName
    #expect(FileManager.default.createFile(atPath: path, contents: try JSONSerialization.data(withJSONObject: config), attributes: [.posixPermissions: 0o600]))
  }

  func ask(timeLimitMs: Int = 700) async throws -> RetentionOutcome {
    let state = try fixture.state
    let customer = try #require(RetentionCustomer(state))
    let setup = try RetentionSetup.load(besideStateFile: fixture.path)
    return await RetentionAsker(authority: Self.ca, timeLimitMs: timeLimitMs, nonceLedger: OfferNonceLedger.path(besideStateFile: fixture.path))
      .ask(customer, setup: setup, catalog: state.catalog, now: Instant(ms: Date().timeIntervalSince1970 * 1000))
  }

  /// The fixture customer's originalTransactionId, which an offer's V2 signature must name.
  static func originalTransactionId() throws -> String {
    let probe = try RetentionScene(url: nil)
    defer { probe.fixture.remove() }
    return try #require(try probe.fixture.state.subscriber.originalTransactionId)
  }

  /// A developer's server that answers a promotional offer with `signature`, the same every time.
  static func offerEndpoint(_ signature: String) -> RealtimeEndpoint {
    RealtimeEndpoint(answer: #"{"promotionalOffer":{"messageIdentifier":"\#(premium)","promotionalOfferSignatureV2":"\#(signature)"}}"#)
  }

  /// A promotionalOfferSignatureV2 as a developer's server signs it (Apple's
  /// PromotionalOfferV2SignatureCreator's claims), with `key` (the developer's unless a test says).
  static func offerSignature(transactionId: String, product: String = "pass.premium.monthly", offer: String = "premium_loyalty_3m",
                             key: P256.Signing.PrivateKey = developerKey, nonce: String = "4c5d2d47-1f0a-4d4e-9d7a-0a4a3c1f2b11") throws -> String {
    func b64(_ json: String) -> String { Base64URL.encode(Array(json.utf8)) }
    let signed = b64(#"{"alg":"ES256","kid":"\#(keyId)","typ":"JWT"}"#) + "."
      + b64(#"{"iss":"\#(issuer)","aud":"promotional-offer","bid":"com.example.birdwatch","iat":\#(Int(Date().timeIntervalSince1970)),"nonce":"\#(nonce)","productId":"\#(product)","offerIdentifier":"\#(offer)","transactionId":"\#(transactionId)"}"#)
    return signed + "." + Base64URL.encode(Array(try key.signature(for: Array(signed.utf8)).rawRepresentation))
  }
}

@Suite("Retention Messaging: the App Store asks the developer's server when a customer goes to cancel")
struct RetentionAskerTests {
  @Test("A message answer is shown as the server chose it, and the request is signed as Apple's verifier expects")
  func messageAnswer() async throws {
    let endpoint = RealtimeEndpoint(answer: #"{"message":{"messageIdentifier":"\#(RetentionScene.stay.uppercased())"}}"#)
    let outcome = try await endpoint.serve { url in
      let scene = try RetentionScene(url: url)
      defer { scene.fixture.remove() }
      return try await scene.ask()
    }
    let offer = try #require(outcome.offer)
    #expect(offer.source == .realtime && offer.kind == .message)
    #expect(offer.header == "Stay with the birds" && offer.bulletPoints == ["Every backyard", "Rare birds alerts"])
    #expect(outcome.problem == nil)

    let payload = try #require(endpoint.received.first)
    let verified = try await JWSVerifier(extraRoots: [TrustedRoot(fileContents: RetentionScene.ca.rootDER, source: "test CA")], trustApple: false).verify(payload)
    let fields = try #require(try JSONSerialization.jsonObject(with: Data(verified.payloadJSON)) as? [String: Any])
    #expect(fields["productId"] as? String == "pass.family.monthly")
    #expect(fields["userLocale"] as? String == "en-US")
    #expect(fields["environment"] as? String == "Sandbox")
    #expect(fields["requestIdentifier"] as? String == outcome.requestIdentifier)
    #expect((fields["originalTransactionId"] as? String)?.isEmpty == false)
    #expect(fields["signedDate"] is NSNumber)
  }

  @Test("A switch-plan answer offers the product; taking it is an upgrade to the higher level")
  func alternateProduct() async throws {
    let endpoint = RealtimeEndpoint(answer: #"{"alternateProduct":{"messageIdentifier":"\#(RetentionScene.premium)","productId":"pass.premium.monthly"}}"#)
    let (outcome, state) = try await endpoint.serve { url in
      let scene = try RetentionScene(url: url)
      defer { scene.fixture.remove() }
      return (try await scene.ask(), try scene.fixture.state)
    }
    #expect(outcome.offer?.kind == .alternateProduct(productId: "pass.premium.monthly"))
    #expect(RetentionChoice.accept.action(for: outcome.offer, in: state) == .upgrade(toProductId: "pass.premium.monthly"))
    #expect(RetentionChoice.cancel.action(for: outcome.offer, in: state) == .setAutoRenew(false))
    #expect(RetentionChoice.keep.action(for: outcome.offer, in: state) == nil)
  }

  @Test("A promotional-offer answer names the signed offer; one signed for another transaction or with another key falls back to the default message")
  func promotionalOffer() async throws {
    let original = try RetentionScene.originalTransactionId()
    let cases: [(String, P256.Signing.PrivateKey, String?)] = [
      (original, RetentionScene.developerKey, nil),
      ("999", RetentionScene.developerKey, "transactionId is not the request's originalTransactionId"),
      (original, P256.Signing.PrivateKey(), "the signature does not verify with key ABCDEFGHIJ"),
    ]
    for (transactionId, key, refusal) in cases {
      let signature = try RetentionScene.offerSignature(transactionId: transactionId, key: key)
      let endpoint = RetentionScene.offerEndpoint(signature)
      let outcome = try await endpoint.serve { url in
        let scene = try RetentionScene(url: url)
        defer { scene.fixture.remove() }
        return try await scene.ask()
      }
      if let refusal {
        #expect(outcome.offer?.source == .defaultMessage && outcome.offer?.header == "Before you go")
        #expect(outcome.problem == "answer refused: promotionalOfferSignatureV2: " + refusal)
        #expect(outcome.origin.hasPrefix("the default message (answer refused: promotionalOfferSignatureV2"))
      } else {
        #expect(outcome.offer?.kind == .promotionalOffer(productId: "pass.premium.monthly", offerId: "premium_loyalty_3m"))
        #expect(outcome.problem == nil)
      }
    }
  }

  @Test("A developer's server that answers the same signed offer twice: the first cancel page shows it, the second the default message, saying the nonce was used")
  func reusedNonce() async throws {
    let original = try RetentionScene.originalTransactionId()
    let endpoint = RetentionScene.offerEndpoint(try RetentionScene.offerSignature(transactionId: original))
    let (first, second) = try await endpoint.serve { url in
      let scene = try RetentionScene(url: url)
      defer { scene.fixture.remove() }
      return (try await scene.ask(), try await scene.ask())
    }
    #expect(first.offer?.kind == .promotionalOffer(productId: "pass.premium.monthly", offerId: "premium_loyalty_3m") && first.problem == nil)
    #expect(second.offer?.source == .defaultMessage && second.offer?.header == "Before you go")
    let problem = try #require(second.problem)
    #expect(problem.hasPrefix("answer refused: promotionalOfferSignatureV2: nonce 4c5d2d47-1f0a-4d4e-9d7a-0a4a3c1f2b11 was already used at "))
    #expect(problem.contains("for originalTransactionId \(original)"))
  }

  @Test("A record of spent nonces that does not read: the offer is not shown, the reason names the file and line, and the record is left as it was")
  func damagedNonceRecord() async throws {
    let original = try RetentionScene.originalTransactionId()
    let endpoint = RetentionScene.offerEndpoint(try RetentionScene.offerSignature(transactionId: original))
    let damaged = Data("not a line of ours\n".utf8)
    let (outcome, after, record) = try await endpoint.serve { url in
      let scene = try RetentionScene(url: url)
      defer { scene.fixture.remove() }
      let record = OfferNonceLedger.path(besideStateFile: scene.fixture.path)
      #expect(FileManager.default.createFile(atPath: record, contents: damaged, attributes: [.posixPermissions: 0o600]))
      return (try await scene.ask(), FileManager.default.contents(atPath: record), record)
    }
    #expect(outcome.offer?.source == .defaultMessage)
    #expect(outcome.problem == "answer refused: promotionalOfferSignatureV2: the nonce could not be checked: \(record):1: not a JSON object")
    #expect(after == damaged)
  }

  @Test("Answers Apple's rules refuse (two choices, an unknown message, another group's product, HTTP 500) show the default message")
  func refusedAnswers() async throws {
    let answers: [(String, Int, String)] = [
      (#"{"message":{"messageIdentifier":"\#(RetentionScene.stay)"},"alternateProduct":{"messageIdentifier":"\#(RetentionScene.premium)","productId":"pass.premium.monthly"}}"#, 200, "mutually exclusive"),
      (#"{"message":{"messageIdentifier":"44444444-4444-4444-8444-444444444444"}}"#, 200, "never uploaded"),
      (#"{"alternateProduct":{"messageIdentifier":"\#(RetentionScene.premium)","productId":"com.other.app.gold"}}"#, 200, "not in the catalog"),
      (#"{"message":{"messageIdentifier":"\#(RetentionScene.stay)"}}"#, 500, "HTTP 500"),
      ("not json", 200, "not a JSON object"),
    ]
    for (answer, status, why) in answers {
      let outcome = try await RealtimeEndpoint(answer: answer, status: status).serve { url in
        let scene = try RetentionScene(url: url)
        defer { scene.fixture.remove() }
        return try await scene.ask()
      }
      #expect(outcome.offer?.source == .defaultMessage, "\(why)")
      #expect(outcome.offer?.messageIdentifier == RetentionScene.fallback, "\(why)")
      #expect(outcome.problem?.contains(why) == true, "\(String(describing: outcome.problem)) should say \(why)")
    }
  }

  @Test("A server slower than the time limit is not waited for: the default message, within the bound")
  func timeLimit() async throws {
    // The server answers only after 10 s; the ask alone is timed (making the scene's keys is not
    // part of the bound), with room for a loaded CI machine and still far from the 10 s a wait costs.
    let endpoint = RealtimeEndpoint(answer: #"{"message":{"messageIdentifier":"\#(RetentionScene.stay)"}}"#, delayMs: 10_000)
    let (outcome, asked) = try await endpoint.serve { url in
      let scene = try RetentionScene(url: url)
      defer { scene.fixture.remove() }
      let started = ContinuousClock.now
      let outcome = try await scene.ask(timeLimitMs: 300)
      return (outcome, ContinuousClock.now - started)
    }
    #expect(asked < .seconds(5), "the ask took \(asked)")
    #expect(outcome.problem == "no answer within 300 ms")
    #expect(outcome.offer?.source == .defaultMessage)
    #expect(endpoint.received.count == 1)
  }

  @Test("A realtime URL nobody listens at: the default message at once, and the reason is the refused connection, not a time-out")
  func refusedConnection() async throws {
    // A loopback port that was just free: bound, closed, so a connection to it is refused.
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: UInt32(0x7f00_0001).bigEndian), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    close(fd)
    let scene = try RetentionScene(url: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/retention")
    defer { scene.fixture.remove() }
    let outcome = try await scene.ask(timeLimitMs: 5_000)
    #expect(outcome.offer?.source == .defaultMessage)
    let problem = try #require(outcome.problem)
    #expect(problem.lowercased().contains("refused"), "\(problem)")
    #expect((outcome.elapsedMs ?? 5_000) < 2_500, "waited \(outcome.elapsedMs ?? -1) ms for a refused connection")
  }

  @Test("Without a default message for the product and locale a failed answer shows none; without a URL nothing is sent")
  func noDefaultNoURL() async throws {
    let outcome = try await RealtimeEndpoint(answer: "{}", status: 503).serve { url in
      let scene = try RetentionScene(url: url, withDefault: false)
      defer { scene.fixture.remove() }
      return try await scene.ask()
    }
    #expect(outcome.offer == nil && outcome.problem == "HTTP 503")

    let scene = try RetentionScene(url: nil)
    defer { scene.fixture.remove() }
    let local = try await scene.ask()
    #expect(local.offer?.source == .defaultMessage && local.problem == nil && local.requestIdentifier == nil)
    #expect(RetentionOutcome(jsonLine: local.jsonLine) == local)
  }
}
