import CoreValues
/// The customer's app transaction as `fetch` records it (Get App Transaction Info, App Store Server
/// API 1.17): the purchase of the app itself, which says since when the customer has had the app
/// and with which version (`originalPurchaseDate`, `originalApplicationVersion`), and the
/// appTransactionId every transaction of the customer carries. Stored as the document's
/// `appTransaction` object, with how its signature checked out.
///
/// The answer is hostile like every response: its JWS is checked by the same checker as the other
/// fetched payloads (an invalid signature stops the fetch, as in import), its `bundleId` must be
/// the app's and its `receiptType` the environment fetched from.
public struct FetchedAppTransaction: Equatable, Sendable {
  public static let key = "appTransaction"

  public var appTransactionId: String
  public var originalPurchaseDate: Instant?
  public var originalApplicationVersion: String?
  /// `receiptType`: "Production" or "Sandbox" (Apple's AppTransaction names the environment so).
  public var environment: String
  /// "Apple-signed", "trusted root" or "unverified (…)": what the signature check said.
  public var signature: String

  public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { "Get App Transaction Info: \(message)" }
  }

  public init(appTransactionId: String, originalPurchaseDate: Instant?, originalApplicationVersion: String?, environment: String, signature: String) {
    self.appTransactionId = appTransactionId
    self.originalPurchaseDate = originalPurchaseDate
    self.originalApplicationVersion = originalApplicationVersion
    self.environment = environment
    self.signature = signature
  }

  /// Reads `{"signedAppTransactionInfo": JWS}`, checked by `checker`, for `bundleId` in `environment`.
  public init(response body: [UInt8], checker: any SignedDataChecking, bundleId: String, environment: String) throws(Refusal) {
    guard let outer = try? JSONParser.parse(body), let jws = outer.objectValue?["signedAppTransactionInfo"]?.stringValue else {
      throw Refusal(message: "the answer has no signedAppTransactionInfo")
    }
    let verdict = checker.check(compactJWS: jws)
    switch verdict {
    case .invalid(let why): throw Refusal(message: "signature invalid: \(why)")
    case .unsigned: throw Refusal(message: "signedAppTransactionInfo is not a JWS")
    case .appleSigned: signature = "Apple-signed"
    case .trustedRoot: signature = "trusted root"
    case .unverified(let why): signature = "unverified (\(why))"
    }
    let payload: JSONObject
    switch checker.verifiedPayload(compactJWS: jws).map(Result.success) ?? CompactJWS.payload(jws) {
    case .success(let o): payload = o
    case .failure(let problem): throw Refusal(message: "signedAppTransactionInfo: \(problem.message)")
    }
    let r = ObjectReader(payload, at: .root)
    do {
      guard let id = try r.string("appTransactionId"), !id.isEmpty, id.count <= 64 else { throw Refusal(message: "no appTransactionId") }
      guard try r.string("bundleId") == bundleId else { throw Refusal(message: "the app transaction is another app's, not \(bundleId)'s") }
      guard let receipt = try r.string("receiptType"), receipt == environment else {
        throw Refusal(message: "receiptType is not \(environment), the environment fetched from")
      }
      appTransactionId = id
      originalPurchaseDate = try r.instant("originalPurchaseDate")
      originalApplicationVersion = try r.string("originalApplicationVersion").map { String($0.prefix(64)) }
      self.environment = receipt
    } catch let e as Refusal {
      throw e
    } catch {
      throw Refusal(message: "\(error)")
    }
  }

  /// The recorded app transaction of a document, if `fetch` wrote one that reads.
  public init?(document: StateDocument) {
    guard let o = document.source[Self.key]?.objectValue, let id = o["appTransactionId"]?.stringValue,
          let env = o["environment"]?.stringValue else { return nil }
    appTransactionId = id
    let r = ObjectReader(o, at: .root)
    originalPurchaseDate = try? r.instant("originalPurchaseDate")
    originalApplicationVersion = o["originalApplicationVersion"]?.stringValue
    environment = env
    signature = o["signature"]?.stringValue ?? "unknown"
  }

  /// Written over any earlier record (a refresh fetches it again).
  public func write(into document: inout JSONObject) {
    var w = ObjectWriter()
    w.set("appTransactionId", appTransactionId)
    w.set("originalPurchaseDate", originalPurchaseDate)
    w.set("originalApplicationVersion", originalApplicationVersion)
    w.set("environment", environment)
    w.set("signature", signature)
    document[Self.key] = .object(w.object)
  }
}
