import AppStoreSigning
import Crypto
import DashModel
import Dispatch
import Foundation
import Synchronization
import CoreValues
import SubscriberImport

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
  /// Without `--bundle-id` every app's notifications are applied; each app seen is said once
  /// (`Outcome.notice`), so an operator notices another app's notifications arriving here.
  private let bundleIdsSeen = Mutex<Set<String>>([])
  /// Bundle ids remembered for that notice; past this many a new one is said each time it comes
  /// (trusted signers only reach this point, so it is no one's memory to fill).
  static let bundleIdsRemembered = 1_000

  public init(verifier: JWSVerifier, sink: SubscriberSink, bundleId: String?) {
    self.verifier = verifier
    self.sink = sink
    self.bundleId = bundleId
  }

  /// The line `listen` prints on start: which apps' notifications it applies.
  public var acceptedApps: String {
    if let bundleId { return "accepting notifications for bundle id \(LogText.clip(bundleId)) only (--bundle-id)" }
    return "accepting notifications for every bundle id (no --bundle-id); each new one is logged once"
  }

  public struct Outcome: Sendable, Equatable {
    public var status: Int
    /// One line: the log line, and the response body.
    public var message: String
    /// Seconds for a `Retry-After` header: set with a 503 (a subscriber locked by another process),
    /// when the same request later may succeed.
    public var retryAfterSeconds: Int?
    /// A line for the log alone, before the outcome's: a bundle id seen for the first time when
    /// every app is accepted.
    public var notice: String?
    public init(status: Int, message: String, retryAfterSeconds: Int? = nil, notice: String? = nil) {
      self.status = status
      self.message = message
      self.retryAfterSeconds = retryAfterSeconds
      self.notice = notice
    }
    static func refused(_ status: Int, _ why: String) -> Outcome { Outcome(status: status, message: "refused: \(why)") }
  }

  /// The outcome's line is printable text only: it goes to a terminal (the log) and to the sender,
  /// and even a trusted signer's strings (a type, an id) must not carry escape sequences there.
  public func receive(body: [UInt8], contentType: String?) async -> Outcome {
    var outcome = await decide(body: body, contentType: contentType)
    outcome.message = Self.printable(outcome.message)
    outcome.notice = outcome.notice.map(Self.printable)
    return outcome
  }

  static func printable(_ s: String) -> String {
    String(s.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
  }

  /// "first notification for bundle id X" once per app when every app is accepted; nil otherwise.
  func noticeOfNew(_ scope: NotificationScope) -> String? {
    guard bundleId == nil else { return nil }
    let id = scope.bundleId ?? "(none)"
    let isNew = bundleIdsSeen.withLock { seen in
      guard !seen.contains(id) else { return false }
      if seen.count < Self.bundleIdsRemembered { seen.insert(id) }
      return true
    }
    return isNew ? "warning: first notification for bundle id \(Self.clip(id)); applied, as every app's are without --bundle-id" : nil
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
    guard let scope = NotificationScope(payload) else {
      return .refused(400, "\(label) \(uuid) carries \(NotificationScope.present(in: payload)) of data, summary, appData and externalPurchaseToken; Apple's carries exactly one")
    }
    if let bundleId, scope.bundleId != bundleId {
      return .refused(403, "\(label) \(uuid) is for bundle id \(Self.clip(scope.bundleId ?? "(none)")), not \(bundleId)")
    }
    if let refusal = await refusal(ofSignedDataIn: verified, payload: payload, scope: scope, label: "\(label) \(uuid)") { return refusal }
    var outcome = await accept(verified, type: type, scope: scope, signed: signed, body: body, label: label, uuid: uuid)
    outcome.notice = noticeOfNew(scope)
    return outcome
  }

  /// A notification that verified and is for an app accepted here: acknowledged, or applied to its
  /// subscriber.
  private func accept(_ verified: VerifiedJWS, type: String, scope: NotificationScope, signed: String, body: [UInt8], label: String,
                      uuid: String) async -> Outcome {
    let payload = verified.payload
    let data = payload["data"]?.objectValue
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
    // Without Apple's notificationUUID, the signed payload identifies the notification: its digest
    // is stored with it, so Apple's retries of it are recognised (NotificationRecord.identity).
    let digest = payload["notificationUUID"]?.stringValue == nil ? Self.digest(of: verified.payloadJSON) : nil
    do {
      let applied = try await sink.apply(ImportInput(label: "notification \(uuid)", bytes: body),
                                         verdicts: KnownVerdicts(verdicts: verdicts), originalTransactionId: otid, payloadDigest: digest)
      return Outcome(status: 200, message: "\(label) \(uuid): \(applied)")
    } catch let content as ImportError {
      // Signed, but a field is not what Apple sends there (a price as a string, a date past any
      // year): the same body will never apply, so it is the sender's error (400, which Apple does
      // not retry for days as it does a 5xx), said with its JSON path.
      return .refused(400, "\(label) \(uuid): \(content.path.map { "\($0): " } ?? "")\(content.message); nothing applied")
    } catch let refused as StateFileError where refused.environments != nil {
      return .refused(409, Self.otherEnvironment(refused, "\(label) \(uuid)", subscriber: otid))
    } catch let busy as SubscriberBusy {
      return Outcome(status: 503, message: "\(label) \(uuid): not applied: \(busy)", retryAfterSeconds: SubscriberBusy.retryAfterSeconds)
    } catch {
      return Outcome(status: 500, message: "\(label) \(uuid): not applied: \(Self.oneLine(error))")
    }
  }

  /// The SHA-256, in hex, of a notification's payload as signed: what identifies one sent without
  /// a notificationUUID (the header and signature around it may be spelled differently each time).
  static func digest(of payloadJSON: [UInt8]) -> String {
    let hex = Array("0123456789abcdef".utf8)
    return String(decoding: SHA256.hash(data: payloadJSON).flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 0x0F)]] }, as: UTF8.self)
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
