import AppStoreSigning
import DashModel
import Dispatch
import Foundation

/// What `subdash listen` does with one POST, without HTTP: the body of an App Store Server
/// Notification V2 (`{"signedPayload": "…"}`) is verified (the notification and its nested signed
/// transaction and renewal info, to Apple Root CA G3 or a `--root`), checked (bundle id), and
/// applied to its subscriber's state file through the importer's merge rules and the same locked,
/// atomic, journalled write as every change. The answer comes only after that write is durable, so
/// Apple's retries cover a crash; a redelivery changes nothing; an older notification arriving
/// late never replaces newer state (the importer keeps the latest by `signedDate`).
public final class NotificationReceiver: Sendable {
  /// Apple's notifications are a few KiB; a body past this is refused before it is read whole.
  public static let bodyLimit = 256 * 1024

  let verifier: JWSVerifier
  let sink: SubscriberSink
  let bundleId: String?

  public init(verifier: JWSVerifier, sink: SubscriberSink, bundleId: String?) {
    self.verifier = verifier
    self.sink = sink
    self.bundleId = bundleId
  }

  public struct Outcome: Sendable, Equatable {
    public var status: Int
    /// One line: the log line, and the response body.
    public var message: String
    /// Seconds for a `Retry-After` header: set with a 503 (a subscriber locked by another process),
    /// when the same request later may succeed.
    public var retryAfterSeconds: Int?
    public init(status: Int, message: String, retryAfterSeconds: Int? = nil) {
      self.status = status
      self.message = message
      self.retryAfterSeconds = retryAfterSeconds
    }
    static func refused(_ status: Int, _ why: String) -> Outcome { Outcome(status: status, message: "refused: \(why)") }
  }

  /// The outcome's line is printable text only: it goes to a terminal (the log) and to the sender,
  /// and even a trusted signer's strings (a type, an id) must not carry escape sequences there.
  public func receive(body: [UInt8], contentType: String?) async -> Outcome {
    var outcome = await decide(body: body, contentType: contentType)
    outcome.message = String(outcome.message.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    return outcome
  }

  private func decide(body: [UInt8], contentType: String?) async -> Outcome {
    guard let contentType, Self.isJSON(contentType) else {
      return .refused(415, "Content-Type must be application/json, not \(Self.clip(contentType ?? "none"))")
    }
    guard body.count <= Self.bodyLimit else { return .refused(413, "body of \(body.count) bytes is over the \(Self.bodyLimit)-byte limit") }
    guard case .object(let object)? = try? JSONParser.parse(body) else { return .refused(400, "the body is not a JSON object") }
    guard object.count == 1, let signed = object["signedPayload"]?.stringValue else {
      return .refused(400, "the body must be {\"signedPayload\": \"<JWS>\"} and nothing else")
    }
    let verified: VerifiedJWS
    do { verified = try await verifier.verify(signed) } catch {
      return .refused(403, "signedPayload: \(Self.oneLine(error))")
    }
    if case .unverified = verified.signedBy {
      // Apple's verifiers leave Xcode/LocalTesting payloads unchecked (and the App Store sends no
      // server notifications for them), so nothing vouches for one: say which field decided it.
      return .refused(403, "signedPayload is for the \(verified.environment ?? "Xcode") environment, which nothing verifies (Apple's libraries skip its signature); deliver Sandbox or Production data")
    }
    guard case .notification(let type, let subtype) = verified.kind else {
      return .refused(400, "signedPayload is not a notification (no notificationType)")
    }
    let payload = verified.payload
    let label = type + (subtype.map { "/\($0)" } ?? "")
    let uuid = payload["notificationUUID"]?.stringValue ?? "?"
    let data = payload["data"]?.objectValue
    guard let scope = NotificationScope(payload) else {
      return .refused(400, "\(label) \(uuid) carries \(NotificationScope.present(in: payload)) of data, summary, appData and externalPurchaseToken; Apple's carries exactly one")
    }
    if let bundleId, scope.bundleId != bundleId {
      return .refused(403, "\(label) \(uuid) is for bundle id \(Self.clip(scope.bundleId ?? "(none)")), not \(bundleId)")
    }
    if let refusal = await refusal(ofSignedDataIn: verified, payload: payload, scope: scope, label: "\(label) \(uuid)") { return refusal }
    if type == "TEST" { return Outcome(status: 200, message: "TEST \(uuid): received (nothing to apply)") }
    if scope.isAboutTheApp {
      // RESCIND_CONSENT, EXTERNAL_PURCHASE_TOKEN and a mass extension's SUMMARY concern the app:
      // acknowledged (or Apple retries them for days) and logged; no subscriber's file changes.
      return Outcome(status: 200, message: "\(label) \(uuid): received, about the app (\(scope.field), \(scope.environment ?? "no environment")), names no subscriber; nothing applied")
    }
    guard let transaction = verified.nested.first(where: { $0.path.hasSuffix("signedTransactionInfo") })?.verified.payload else {
      // SUMMARY (mass extension) and other notifications without a transaction name no subscriber.
      return Outcome(status: 200, message: "\(label) \(uuid): received, names no subscriber (no signedTransactionInfo); nothing applied")
    }
    let otid: String
    switch transaction["originalTransactionId"] {
    case .string(let s)?: otid = s
    case .number?:
      // Apple's ids are strings; a number is not what the App Store signs (and the importer,
      // which reads strings, would find no subscriber in it).
      return .refused(400, "\(label) \(uuid): signedTransactionInfo's originalTransactionId is a number, not a string of digits as Apple sends it")
    default: return .refused(400, "\(label) \(uuid): signedTransactionInfo has no originalTransactionId")
    }
    // The id becomes a file name: digits only, so nothing is ever written outside the directory.
    guard !otid.isEmpty, otid.count <= 32, otid.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      return .refused(400, "\(label) \(uuid): originalTransactionId \(Self.clip(otid)) is not a string of digits")
    }
    var verdicts: [(jws: String, known: KnownVerdicts.Known)] = [(signed, .init(verified))]
    for n in verified.nested {
      if let jws = data?[String(n.path.split(separator: ".").last ?? "")]?.stringValue { verdicts.append((jws, .init(n.verified))) }
    }
    do {
      let applied = try await sink.apply(ImportInput(label: "notification \(uuid)", bytes: body),
                                         verdicts: KnownVerdicts(verdicts: verdicts), originalTransactionId: otid, notificationUUID: uuid)
      return Outcome(status: 200, message: "\(label) \(uuid): \(applied)")
    } catch let refused as StateFileError where refused.environments != nil {
      return .refused(409, Self.otherEnvironment(refused, "\(label) \(uuid)", subscriber: otid))
    } catch let busy as SubscriberBusy {
      return Outcome(status: 503, message: "\(label) \(uuid): not applied: \(busy)", retryAfterSeconds: SubscriberBusy.retryAfterSeconds)
    } catch {
      return Outcome(status: 500, message: "\(label) \(uuid): not applied: \(Self.oneLine(error))")
    }
  }

  static func oneLine(_ error: any Error) -> String {
    String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
  }

  /// Untrusted text in a log line or an answer: printable ASCII, at most 60 characters.
  static func clip(_ s: String) -> String { LogText.clip(s) }
}

/// The verdicts the receiver already reached (asynchronously) for each JWS in the body, handed to
/// the importer, whose checker is synchronous; with each verified payload, so the importer does
/// not decode the same three JWS again (that was 7 % of `listen`'s CPU under load).
struct KnownVerdicts: SignedDataChecking {
  struct Known {
    let verdict: SignatureVerdict
    /// Only for a verified signature: Xcode's unverified data is decoded by the importer's own rules.
    let payload: JSONObject?
    init(_ v: VerifiedJWS) {
      verdict = v.verdict()
      if case .unverified = v.signedBy { payload = nil } else { payload = v.payload }
    }
  }
  /// Three at most (the notification, its transaction and renewal info), found by comparing the
  /// strings: hashing 13 KB of JWS for a dictionary at every lookup cost more than that.
  let verdicts: [(jws: String, known: Known)]
  func check(compactJWS: String) -> SignatureVerdict { known(compactJWS)?.verdict ?? .invalid("not verified by the receiver") }
  func verifiedPayload(compactJWS: String) -> JSONObject? { known(compactJWS)?.payload }
  private func known(_ jws: String) -> Known? { verdicts.first { $0.jws == jws }?.known }
}
