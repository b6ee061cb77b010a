import CoreValues
/// What the App Store shows a customer who goes to cancel, when the developer uses the Retention
/// Messaging API: a message (header, body, bullet points), optionally with a switch-plan product
/// or a promotional offer the customer can take instead of cancelling.
public struct RetentionOffer: Equatable, Sendable {
  public enum Kind: Equatable, Sendable {
    case message
    /// Apple's `alternateProduct`: a product of the same group to switch to.
    case alternateProduct(productId: String)
    /// Apple's `promotionalOffer`: the signed offer's product and offer identifier.
    case promotionalOffer(productId: String, offerId: String)
  }

  /// The developer's server chose it in time, or the App Store fell back to the default message.
  public enum Source: String, Equatable, Sendable {
    case realtime
    case defaultMessage = "default"
  }

  public var kind: Kind
  public var source: Source
  public var messageIdentifier: String
  public var header: String
  public var body: String
  public var bulletPoints: [String]

  public init(kind: Kind, source: Source, messageIdentifier: String, message: RetentionSetup.Message) {
    self.kind = kind
    self.source = source
    self.messageIdentifier = messageIdentifier
    header = message.header
    body = message.body
    bulletPoints = message.bulletPoints
  }

  var json: JSON {
    var fields: [(String, JSON)] = [("source", .string(source.rawValue)), ("messageIdentifier", .string(messageIdentifier)),
                                    ("header", .string(header)), ("body", .string(body)),
                                    ("bulletPoints", .array(bulletPoints.map(JSON.string)))]
    switch kind {
    case .message: fields.append(("kind", .string("message")))
    case .alternateProduct(let p): fields += [("kind", .string("alternateProduct")), ("productId", .string(p))]
    case .promotionalOffer(let p, let o): fields += [("kind", .string("promotionalOffer")), ("productId", .string(p)), ("offerIdentifier", .string(o))]
    }
    return .object(JSONObject(fields))
  }

  init?(json: JSON) {
    guard let o = json.objectValue, let source = o["source"]?.stringValue.flatMap(Source.init(rawValue:)),
          let id = o["messageIdentifier"]?.stringValue, let header = o["header"]?.stringValue, let body = o["body"]?.stringValue else { return nil }
    let bullets = (o["bulletPoints"]?.arrayValue ?? []).compactMap(\.stringValue)
    let kind: Kind
    switch o["kind"]?.stringValue {
    case "message": kind = .message
    case "alternateProduct":
      guard let p = o["productId"]?.stringValue else { return nil }
      kind = .alternateProduct(productId: p)
    case "promotionalOffer":
      guard let p = o["productId"]?.stringValue, let offer = o["offerIdentifier"]?.stringValue else { return nil }
      kind = .promotionalOffer(productId: p, offerId: offer)
    default: return nil
    }
    self.init(kind: kind, source: source, messageIdentifier: id, message: RetentionSetup.Message(header: header, body: body, bulletPoints: bullets))
  }
}

/// How asking for a retention message went: the offer shown (nil: Apple's plain cancel page), and
/// why the default or nothing was shown when the developer's server was asked and did not answer
/// usably. It travels from the helper that asks (`subdash-retention`) to the dashboard and scenario
/// runner as one JSON line.
public struct RetentionOutcome: Equatable, Sendable {
  public var offer: RetentionOffer?
  /// "no answer within 700 ms", "HTTP 500", "answer refused: …"; nil when nothing went wrong.
  public var problem: String?
  /// The realtime request's requestIdentifier, when one was sent.
  public var requestIdentifier: String?
  /// How long the developer's server took, when it answered.
  public var elapsedMs: Int?

  public init(offer: RetentionOffer?, problem: String? = nil, requestIdentifier: String? = nil, elapsedMs: Int? = nil) {
    self.offer = offer
    self.problem = problem
    self.requestIdentifier = requestIdentifier
    self.elapsedMs = elapsedMs
  }

  public var jsonLine: String {
    var fields: [(String, JSON)] = [("offer", offer?.json ?? .null)]
    if let problem { fields.append(("problem", .string(problem))) }
    if let requestIdentifier { fields.append(("requestIdentifier", .string(requestIdentifier))) }
    if let elapsedMs { fields.append(("elapsedMs", .int(elapsedMs))) }
    return String(decoding: JSONWriter.write(.object(JSONObject(fields)), pretty: false), as: UTF8.self)
  }

  /// The helper's line back; nil when it is not one (then the caller says the helper failed).
  public init?(jsonLine: String) {
    guard case .object(let o)? = try? JSONParser.parse(Array(jsonLine.utf8)), let offerJSON = o["offer"] else { return nil }
    if case .null = offerJSON { offer = nil } else {
      guard let parsed = RetentionOffer(json: offerJSON) else { return nil }
      offer = parsed
    }
    problem = o["problem"]?.stringValue
    requestIdentifier = o["requestIdentifier"]?.stringValue
    elapsedMs = o["elapsedMs"].flatMap { if case .number(let t) = $0 { return Int(t) } else { return nil } }
  }

  /// One line for the status bar and the scenario log: where the message came from.
  public var origin: String {
    switch (offer?.source, problem) {
    case (.realtime?, _): return "chosen by the developer's server" + (elapsedMs.map { " in \($0) ms" } ?? "")
    case (.defaultMessage?, let p?): return "the default message (\(p))"
    case (.defaultMessage?, nil): return "the default message (no realtime URL configured)"
    case (nil, let p?): return "no retention message (\(p); no default message for this product and locale)"
    case (nil, nil): return "no retention message configured"
    }
  }
}
