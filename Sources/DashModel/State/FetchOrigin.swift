import CoreValues
/// How a state file fetched from the App Store Server API can be fetched again: the customer's
/// transaction id (or order id), the environment and a non-default server. Stored as the document's
/// `fetchedFrom` object. Never a credential: the key stays in the user's flags, environment or profile.
public struct FetchOrigin: Equatable, Sendable {
  public static let key = "fetchedFrom"

  public var transactionId: String
  public var orderId: String?
  /// "Production" or "Sandbox", as Apple spells it in payloads.
  public var environment: String
  /// Set only when the fetch used `--base-url` (tests, a local mock).
  public var baseURL: String?
  /// `--root` certificate files the fetch trusted (a test server's TLS and signing CA); paths, not secrets.
  public var roots: [String]
  public var fetchedDate: Instant

  public init(transactionId: String, orderId: String? = nil, environment: String, baseURL: String? = nil, roots: [String] = [],
              fetchedDate: Instant) {
    self.transactionId = transactionId
    self.orderId = orderId
    self.environment = environment
    self.baseURL = baseURL
    self.roots = roots
    self.fetchedDate = fetchedDate
  }

  /// nil when the document was not fetched (or its `fetchedFrom` is not one SubDash wrote).
  public init?(document: StateDocument) {
    guard let o = document.source[Self.key]?.objectValue, let id = o["transactionId"]?.stringValue, !id.isEmpty,
          let env = o["environment"]?.stringValue, env == "Production" || env == "Sandbox" else { return nil }
    transactionId = id
    orderId = o["orderId"]?.stringValue
    environment = env
    baseURL = o["baseURL"]?.stringValue
    roots = (o["roots"]?.arrayValue ?? []).compactMap(\.stringValue)
    // A hand-edited 1e999 must not reach Instant's finite-only initialiser.
    let ms: Double? = if case .number(let n)? = o["fetchedDate"], let d = Double(n), d.isFinite { d } else { nil }
    fetchedDate = Instant(ms: ms ?? 0)
  }

  /// Written over the previous `fetchedFrom`, keeping any key a later version added.
  public func write(into document: inout StateDocument) { write(into: &document.source) }

  /// The same, on a state document's JSON (a new file's, before it is stored).
  public func write(into document: inout JSONObject) {
    var w = ObjectWriter(document[Self.key]?.objectValue ?? JSONObject())
    w.set("transactionId", transactionId)
    w.set("orderId", orderId)
    w.set("environment", environment)
    w.set("baseURL", baseURL)
    w.set("roots", roots.isEmpty ? nil : roots)
    w.set("fetchedDate", fetchedDate)
    document[Self.key] = .object(w.object)
  }
}
