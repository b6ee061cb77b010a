import CoreValues
/// The document's `simulation` object: the virtual clock and every knob the simulator reads.
/// Read and written with ObjectReader/ObjectWriter over the original object, so keys SubDash does
/// not know survive, and a setting keeps the spelling it was written with (`"gracePeriod": true`
/// stays `true`) unless the simulator changes its value. docs/simulation.md lists every field.
public struct SimulationSettings: Equatable, Sendable {
  public var source: JSONObject
  /// The virtual clock. Nil until the simulator or a scenario first sets it.
  public var now: Instant?
  /// A `SimulationRate` name (`realTime`, `monthlyRenewalEveryFiveMinutes`, `sandbox-5m`, a raw
  /// `_timeRate` number as text). Nil: the catalog's `_timeRate`, else real time.
  public var timeRate: String?
  /// Nil: grace follows the catalog's `_billingGracePeriodEnabled` with StoreKit testing's rule.
  public var gracePeriod: GraceSetting?
  /// App Store Connect's grace `renewalType`; nil means all renewals.
  public var graceRenewalType: GraceRenewalType?
  /// Every renewal fails (Xcode's "billing retry on renewal"). Nil: the catalog's
  /// `_renewalBillingIssuesEnabled`.
  public var failRenewals: Bool?
  /// Scripted outcomes, one consumed per renewal attempt, before `failRenewals` applies.
  public var renewalOutcomes: [RenewalOutcome]
  /// Chance (0…1) that a renewal with no scripted outcome fails, drawn from `seed`.
  public var failureRate: Double?
  /// Seeds notification UUIDs and `failureRate` draws, so a run is reproducible.
  public var seed: UInt64
  /// Successful renewals since the last purchase, for the sandbox renewal cap.
  public var renewalCount: Int
  /// Nil: the rate's own cap (12 for sandbox rates, none otherwise).
  public var sandboxRenewalCap: RenewalCap?
  /// Ask to Buy on purchases. Nil: the catalog's `_askToBuyEnabled`.
  public var askToBuy: Bool?
  /// The current failed renewal, while it is in grace or billing retry.
  public var billingIssue: BillingIssue?
  /// A price increase announced for the renewing product.
  public var pendingPriceIncrease: PendingPriceIncrease?
  /// Regular prices that differ from the catalog after an increase took effect (milliunits).
  public var priceOverrides: [(productId: String, priceMilli: Int64)]
  /// Where calendar periods are counted from, so Jan 31 renews on Feb 28 and then Mar 31.
  public var periodAnchor: PeriodAnchor?
  /// Renewal-date extensions granted so far, oldest first (Apple allows two per 365 days).
  public var renewalExtensions: [RenewalExtensionRecord]
  /// A refund the customer requested that the App Store has not decided yet.
  public var refundRequest: RefundRequest?
  /// Fields of a first purchase when the file has no transaction to copy them from.
  public var environment: AppStoreEnvironment?
  public var bundleId: String?
  public var currency: String?
  public var storefront: String?
  /// Added to the sequence numbers new transactionIds and webOrderLineItemIds are made from
  /// (`Identifiers`), so the subscribers of one population never share an id (a server looking
  /// a transaction up by id must find one subscriber). Nil: 0.
  public var transactionIdOffset: Int64?
  /// The largest offset: ids stay 16 digits (2… for transactions, 3… for order line items).
  public static let maxTransactionIdOffset: Int64 = 899_999_999_000_000

  public init() {
    source = JSONObject()
    renewalOutcomes = []
    seed = 0
    renewalCount = 0
    priceOverrides = []
    renewalExtensions = []
  }

  public init(_ r: ObjectReader) throws(DecodeError) {
    source = r.object
    now = try r.instant("now")
    timeRate = try Self.readRate(r)
    gracePeriod = try GraceSetting.read(r, "gracePeriod")
    if let t = try r.string("graceRenewalType") {
      guard let v = GraceRenewalType(rawValue: t) else {
        throw DecodeError(r.path.appending("graceRenewalType"), "expected \"ALL_RENEWALS\" or \"PAID_TO_PAID_ONLY\"")
      }
      graceRenewalType = v
    }
    failRenewals = try r.bool("failRenewals")
    renewalOutcomes = []
    for (json, path) in try r.array("renewalOutcomes") ?? [] {
      guard case .string(let s) = json else { throw DecodeError(path, "expected a string such as \"ok\" or \"fail\"") }
      do { renewalOutcomes.append(try RenewalOutcome(parsing: s)) } catch { throw DecodeError(path, error.message) }
    }
    failureRate = try r.double("failureRate")
    if let f = failureRate, !(0...1).contains(f) {
      throw DecodeError(r.path.appending("failureRate"), "must be between 0 and 1")
    }
    let s = try r.int64("seed") ?? 0
    seed = UInt64(bitPattern: s)
    renewalCount = try r.int("renewalCount") ?? 0
    sandboxRenewalCap = try RenewalCap.read(r, "sandboxRenewalCap")
    askToBuy = try r.bool("askToBuy")
    billingIssue = try r.object("billingIssue").map { (o) throws(DecodeError) in try BillingIssue(o) }
    pendingPriceIncrease = try r.object("pendingPriceIncrease").map { (o) throws(DecodeError) in try PendingPriceIncrease(o) }
    priceOverrides = []
    if let o = try r.object("priceOverrides") {
      for key in o.object.keys {
        guard let p = try o.int64(key) else { continue }
        guard p >= 0 else { throw DecodeError(o.path.appending(key), "a price cannot be negative") }
        priceOverrides.append((key, p))
      }
    }
    periodAnchor = try r.object("periodAnchor").map { (o) throws(DecodeError) in try PeriodAnchor(o) }
    refundRequest = try r.object("refundRequest").map { (o) throws(DecodeError) in try RefundRequest(o) }
    renewalExtensions = []
    for (json, path) in try r.array("renewalExtensions") ?? [] {
      renewalExtensions.append(try RenewalExtensionRecord(ObjectReader(json, at: path)))
    }
    environment = try r.stringEnum("environment")
    bundleId = try r.string("bundleId")
    currency = try r.string("currency")
    storefront = try r.string("storefront")
    transactionIdOffset = try r.int64("transactionIdOffset")
    if let o = transactionIdOffset, !(0...Self.maxTransactionIdOffset).contains(o) {
      throw DecodeError(r.path.appending("transactionIdOffset"), "must be between 0 and \(Self.maxTransactionIdOffset)")
    }
  }

  /// The settings of a state; an absent `simulation` object reads as defaults.
  public init(of state: SubscriptionState) throws(DecodeError) {
    guard let o = state.document.simulation else { self.init(); return }
    try self.init(ObjectReader(o, at: JSONPath.root.appending("simulation")))
  }

  /// Overlays only what changed since `source` was read, so untouched settings keep their spelling.
  public var json: JSON {
    let old = (try? SimulationSettings(ObjectReader(source, at: .root))) ?? SimulationSettings()
    var w = ObjectWriter(source)
    if old.now != now { w.set("now", now) }
    if old.timeRate != timeRate { w.set("timeRate", timeRate) }
    if old.gracePeriod != gracePeriod { w.set("gracePeriod", json: gracePeriod?.json) }
    if old.graceRenewalType != graceRenewalType { w.set("graceRenewalType", graceRenewalType?.rawValue) }
    if old.failRenewals != failRenewals { w.set("failRenewals", failRenewals) }
    if old.renewalOutcomes != renewalOutcomes {
      w.set("renewalOutcomes", json: renewalOutcomes.isEmpty && source["renewalOutcomes"] == nil ? nil : .array(renewalOutcomes.map { .string($0.text) }))
    }
    if old.failureRate != failureRate { w.set("failureRate", json: failureRate.map(JSON.double)) }
    if old.seed != seed { w.set("seed", Int64(bitPattern: seed)) }
    if old.renewalCount != renewalCount { w.set("renewalCount", renewalCount) }
    if old.sandboxRenewalCap != sandboxRenewalCap { w.set("sandboxRenewalCap", json: sandboxRenewalCap?.json) }
    if old.askToBuy != askToBuy { w.set("askToBuy", askToBuy) }
    if old.billingIssue != billingIssue { w.set("billingIssue", json: billingIssue?.json) }
    if old.pendingPriceIncrease != pendingPriceIncrease { w.set("pendingPriceIncrease", json: pendingPriceIncrease?.json) }
    if !Self.same(old.priceOverrides, priceOverrides) {
      w.set("priceOverrides", json: priceOverrides.isEmpty ? nil : .object(JSONObject(priceOverrides.map { ($0.productId, JSON.int($0.priceMilli)) })))
    }
    if old.periodAnchor != periodAnchor { w.set("periodAnchor", json: periodAnchor?.json) }
    if old.refundRequest != refundRequest { w.set("refundRequest", json: refundRequest?.json) }
    if old.renewalExtensions != renewalExtensions {
      w.set("renewalExtensions", json: renewalExtensions.isEmpty ? nil : .array(renewalExtensions.map(\.json)))
    }
    if old.environment != environment { w.set("environment", environment) }
    if old.bundleId != bundleId { w.set("bundleId", bundleId) }
    if old.currency != currency { w.set("currency", currency) }
    if old.storefront != storefront { w.set("storefront", storefront) }
    if old.transactionIdOffset != transactionIdOffset { w.set("transactionIdOffset", json: transactionIdOffset.map(JSON.int)) }
    return w.json
  }

  public static func == (a: SimulationSettings, b: SimulationSettings) -> Bool {
    a.source == b.source && a.now == b.now && a.timeRate == b.timeRate && a.gracePeriod == b.gracePeriod
      && a.graceRenewalType == b.graceRenewalType && a.failRenewals == b.failRenewals
      && a.renewalOutcomes == b.renewalOutcomes && a.failureRate == b.failureRate && a.seed == b.seed
      && a.renewalCount == b.renewalCount && a.sandboxRenewalCap == b.sandboxRenewalCap && a.askToBuy == b.askToBuy
      && a.billingIssue == b.billingIssue && a.pendingPriceIncrease == b.pendingPriceIncrease
      && same(a.priceOverrides, b.priceOverrides) && a.periodAnchor == b.periodAnchor
      && a.renewalExtensions == b.renewalExtensions && a.refundRequest == b.refundRequest
      && a.environment == b.environment && a.bundleId == b.bundleId && a.currency == b.currency && a.storefront == b.storefront
      && a.transactionIdOffset == b.transactionIdOffset
  }

  static func same(_ a: [(productId: String, priceMilli: Int64)], _ b: [(productId: String, priceMilli: Int64)]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.productId == $1.productId && $0.priceMilli == $1.priceMilli }
  }

  /// A `.storekit`-style integer (`"timeRate": 13`) is accepted beside the name.
  static func readRate(_ r: ObjectReader) throws(DecodeError) -> String? {
    if case .number(let n)? = r.object["timeRate"] { return n }
    return try r.string("timeRate")
  }

  public func priceOverride(for productId: String) -> Int64? {
    priceOverrides.first { $0.productId == productId }?.priceMilli
  }

  public mutating func setPriceOverride(_ price: Int64, for productId: String) {
    if let i = priceOverrides.firstIndex(where: { $0.productId == productId }) {
      priceOverrides[i].priceMilli = price
    } else {
      priceOverrides.append((productId, price))
    }
  }
}

extension SubscriptionState {
  /// Writes `settings` into the document's `simulation` object.
  public mutating func setSimulation(_ settings: SimulationSettings) {
    guard case .object(let o) = settings.json else { return }
    document.simulation = o
  }
}
