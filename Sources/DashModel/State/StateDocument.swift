import CoreValues
/// The current-state document: one subscriber, where its catalog comes from, offer codes, policy,
/// the simulated clock and a pointer to the append-only history journal. Kept small on purpose:
/// the history grows in the journal, so reading and rewriting this document costs the same after
/// ten renewals or fifty thousand.
public struct StateDocument: Equatable, Sendable {
  public var source: JSONObject
  public var format: String?
  public var subscriber: Subscriber
  public var catalogReference: CatalogReference
  /// Win-back offers declared beside a .storekit catalog (which cannot express them).
  public var winBackOffers: [WinBackOffer]
  public var offerCodes: [OfferCodeBatch]
  public var policy: AccessPolicy
  /// The simulator's settings and clock, kept as JSON; `SimulationSettings` reads it.
  public var simulation: JSONObject?
  public var journal: JournalInfo?
  /// Notifications sent to a developer's server (`subdash deliver`), when any are.
  public var deliveries: DeliveryBook?

  public enum CatalogReference: Equatable, Sendable {
    case inline
    /// A path relative to the state file's directory.
    case file(String)
  }

  public init(_ r: ObjectReader) throws(DecodeError) {
    source = r.object
    format = try r.string("format")
    if let f = format, !f.hasPrefix("subdash-state/") {
      throw DecodeError(r.path.appending("format"), "\"\(f)\" is not a SubDash state format (expected \(DashModelInfo.stateFormat))")
    }
    if !r.has("subscriber"), r.has("subscriptionGroups") || r.has("products") {
      throw DecodeError(r.path, "this is a .storekit catalog, not a SubDash state file (name it in a state file's \"catalogFile\")")
    }
    guard let sub = try r.object("subscriber") else {
      throw DecodeError(r.path.appending("subscriber"), "required object is missing")
    }
    subscriber = try Subscriber(sub)
    let hasInline = r.has("catalog")
    if let file = try r.string("catalogFile") {
      if hasInline { throw DecodeError(r.path.appending("catalogFile"), "give either \"catalog\" or \"catalogFile\", not both") }
      catalogReference = .file(file)
    } else if hasInline {
      _ = try r.object("catalog")
      catalogReference = .inline
    } else {
      throw DecodeError(r.path.appending("catalog"), "required: an inline \"catalog\" object or a \"catalogFile\" path")
    }
    winBackOffers = try r.objects("winBackOffers") { (o) throws(DecodeError) in try WinBackReader.read(o, productId: nil) } ?? []
    offerCodes = try r.objects("offerCodes") { (o) throws(DecodeError) in try OfferCodeBatch(o) } ?? []
    policy = try r.object("policy").map { (p) throws(DecodeError) in try AccessPolicy(p) } ?? AccessPolicy()
    let sim = try r.object("simulation")
    // The virtual clock is every reader's `now` (the dashboard takes it as it is): a date outside
    // years 1900–3000 is refused here, with its path, instead of overflowing calendar arithmetic
    // in whatever reads it first (found by fuzzing). The other settings are the simulator's to read.
    _ = try sim?.instant("now")
    simulation = sim?.object
    journal = try r.object("journal").map { (j) throws(DecodeError) in try JournalInfo(j) }
    deliveries = try r.object(DeliveryBook.key).map { (d) throws(DecodeError) in try DeliveryBook(d) }
  }

  public var json: JSON {
    var w = ObjectWriter(source)
    w.set("subscriber", json: subscriber.json)
    if source["offerCodes"] != nil || !offerCodes.isEmpty { w.set("offerCodes", json: .array(offerCodes.map(\.json))) }
    w.set("simulation", json: simulation.map(JSON.object))
    w.set("journal", json: journal?.json)
    w.set(DeliveryBook.key, json: deliveries?.json)
    return w.json
  }

  /// The inline catalog object, if the catalog is inline.
  public var inlineCatalog: JSONObject? { source["catalog"]?.objectValue }
}

/// Where the append-only history lives and what it holds so far. `committedBytes` is the length
/// of the journal that this document vouches for: bytes past it are the leftovers of a writer that
/// crashed between appending and renaming, and are ignored and later truncated.
public struct JournalInfo: Equatable, Sendable {
  public var source: JSONObject
  /// File name, relative to the state file's directory.
  public var file: String
  public var committedBytes: Int64
  /// Totals of the journal's entries, so no reader has to scan it.
  public var summary: HistorySummary

  public init(file: String) {
    source = JSONObject()
    self.file = file
    committedBytes = 0
    summary = HistorySummary()
  }

  init(_ r: ObjectReader) throws(DecodeError) {
    source = r.object
    file = try r.requiredString("file")
    if file.isEmpty || file.contains("/") || file == ".." || file == "."
      || file.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
      throw DecodeError(r.path.appending("file"), "the journal must be a plain file name beside the state file")
    }
    committedBytes = try r.int64("committedBytes") ?? 0
    guard committedBytes >= 0 else { throw DecodeError(r.path.appending("committedBytes"), "must not be negative") }
    summary = try r.object("summary").map { (s) throws(DecodeError) in try HistorySummary(s) } ?? HistorySummary()
  }

  public var json: JSON {
    var w = ObjectWriter(source)
    w.set("file", file)
    w.set("committedBytes", committedBytes)
    w.set("summary", json: summary.json)
    return w.json
  }
}
