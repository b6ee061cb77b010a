import ArgumentParser
import DashModel
import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `subdash simulate --population N DIR`: a population of subscribers advanced by one virtual
/// clock. A directory without state files is first filled with N subscribers made from the demo
/// subscriber (a fresh originalTransactionId and appAccountToken each) with the mix's billing
/// failure rate and share of auto-renew off, each with its own seed derived from `--seed`. Then
/// every subscriber is advanced to the same virtual moment by the simulation engine, each file
/// through the locked, atomic, journalled write, on every core. Files are independent and each
/// draws only from its own seed, so the same seed gives byte-identical files whatever the thread
/// scheduling.
struct SimulatePopulation {
  /// What the population is made of (`--mix FILE`: a JSON object with these keys, all optional).
  struct Mix: Equatable {
    /// Chance that a renewal fails with a billing issue (the engine's `failureRate`).
    var failureRate = 0.05
    /// Share of subscribers who turned auto-renew off (voluntary churn at their next renewal).
    var autoRenewOff = 0.10
    /// Shares of subscribers to whom each happens once, at a random moment of the run (drawn from
    /// the subscriber's own seed): a refund; a price increase (of which `priceIncreaseConsent`
    /// consent, the others decline and expire at renewal); an upgrade to the group's top level.
    var refundRate = 0.0
    var priceIncreaseRate = 0.0
    var priceIncreaseConsent = 0.5
    var upgradeRate = 0.0
    /// Starting plans by weight (`{"pass.family.monthly": 3, "pass.premium.annual": 1}`). Without
    /// it every subscriber is a copy of the demo subscriber; with it each is a new customer who
    /// buys the drawn plan at the start (SUBSCRIBED / INITIAL_BUY), taking its introductory offer
    /// when eligible for `introOfferRate` of them.
    var products: [Plan] = []
    var introOfferRate = 1.0
    /// Share of subscribers who redeem one of the file's offer codes once during the run (the
    /// code drawn from the file's codes; one the subscriber is not eligible for is skipped).
    var offerCodeRate = 0.0
    /// Share of subscribers who, once lapsed and offered a win-back offer, accept it (checked at
    /// every 30 days of the run).
    var winBackAcceptance = 0.0

    static let keys = "failureRate, autoRenewOff, refundRate, priceIncreaseRate, priceIncreaseConsent, upgradeRate, products, introOfferRate, offerCodeRate, winBackAcceptance"

    /// A starting plan and its weight among the mix's plans.
    struct Plan: Equatable {
      var id: String
      var weight: Double
      init(_ id: String, _ weight: Double) {
        self.id = id
        self.weight = weight
      }
    }

    static func read(_ path: String) throws -> Mix {
      guard let bytes = readInput(path) else { throw SimulateInputError("\(path): cannot read the mix") }
      guard case .object(let o)? = try? JSONParser.parse(bytes) else { throw SimulateInputError("\(path): the mix must be a JSON object") }
      var mix = Mix()
      for (key, value) in o.entries {
        if key == "products" {
          guard case .object(let weights) = value, !weights.entries.isEmpty else {
            throw SimulateInputError("\(path): $.products must be an object of product ids and weights")
          }
          for (id, w) in weights.entries {
            guard case .number(let text) = w, let x = Double(text), x > 0, x.isFinite else {
              throw SimulateInputError("\(path): $.products.\(id) must be a weight above 0")
            }
            mix.products.append(Plan(id, x))
          }
          continue
        }
        guard case .number(let text) = value, let x = Double(text), (0...1).contains(x) else {
          throw SimulateInputError("\(path): $.\(key) must be a number from 0 to 1")
        }
        switch key {
        case "failureRate": mix.failureRate = x
        case "autoRenewOff": mix.autoRenewOff = x
        case "refundRate": mix.refundRate = x
        case "priceIncreaseRate": mix.priceIncreaseRate = x
        case "priceIncreaseConsent": mix.priceIncreaseConsent = x
        case "upgradeRate": mix.upgradeRate = x
        case "introOfferRate": mix.introOfferRate = x
        case "offerCodeRate": mix.offerCodeRate = x
        case "winBackAcceptance": mix.winBackAcceptance = x
        default: throw SimulateInputError("\(path): $.\(key) is not a mix setting (\(Mix.keys))")
        }
      }
      return mix
    }
  }

  let directory: String
  let count: Int
  let seed: UInt64
  let mix: Mix
  let months: Int
  /// Where each subscriber's notifications from this run go (`--deliver`): a delivery book is
  /// opened in every file at its history's end before the clock moves, and `subdash deliver`
  /// drains the directory afterwards.
  var deliverTo: String? = nil

  struct Summary {
    var subscribers = 0
    var created = 0
    var notifications: [String: Int] = [:]
    var subscriberMonths = 0.0
    var failures: [String] = []
    /// Mix events the subscriber's state did not allow when they came (a refund after expiry).
    var skipped = 0
  }

  func run() throws -> Summary {
    var summary = Summary()
    if try stateFiles().isEmpty {
      try create()
      summary.created = count
    }
    let names = try stateFiles()
    summary.subscribers = names.count
    // Each worker takes every n-th file and keeps its own tally; the tallies are added at the end.
    let workers = max(1, min(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), names.count))
    let tallies = Tallies(count: workers)
    DispatchQueue.concurrentPerform(iterations: workers) { w in
      var i = w
      while i < names.count {
        tallies.record(w, advance(directory + "/" + names[i]))
        i += workers
      }
    }
    for t in tallies.all {
      summary.subscriberMonths += t.subscriberMonths
      summary.failures += t.failures
      summary.skipped += t.skipped
      for (k, v) in t.notifications { summary.notifications[k, default: 0] += v }
    }
    return summary
  }

  private func stateFiles() throws -> [String] {
    if let why = PrivateDirectory.create(directory) { throw SimulateInputError("\(directory): cannot create the directory: \(why)") }
    return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
      .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
  }

  /// N subscribers from the demo subscriber, ids `4` + 15 digits, settings from the mix.
  private func create() throws {
    let template = DemoState.json
    let templateId = "2000000871234560"
    // The demo's appAccountToken, replaced per subscriber like its id.
    let templateToken: String? = {
      guard case .object(let o)? = try? JSONParser.parse(Array(template.utf8)) else { return nil }
      return o["subscriber"]?.objectValue?["latestTransaction"]?.objectValue?["appAccountToken"]?.stringValue
    }()
    func padded(_ n: Int, _ width: Int) -> String {
      let digits = String(n)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    // What each subscriber's copy replaces: a new customer's placeholders, or the demo's id,
    // token and history ids (the history made this subscriber's, above the range its new ids use).
    let newCustomers = !mix.products.isEmpty
    let historyIds = newCustomers ? [] : Self.historyIds(template).filter { $0 != templateId }
    let marked = newCustomers ? [Self.placeholderId, Self.placeholderToken] : [templateId, templateToken ?? ""] + historyIds
    let copy = PopulationTemplate(newCustomers ? try Self.newCustomerTemplate() : template, marking: marked)
    let totalWeight = mix.products.reduce(0) { $0 + $1.weight }
    var rng = SplitMix(seed: seed)
    for i in 0..<count {
      let id = "4" + padded(i, 15)
      let token = "00000000-0000-4000-8000-" + padded(i, 12)
      let ids = historyIds.enumerated().map { k, old in
        String((old.hasPrefix("3") ? 3_000_000_000_000_000 : 2_000_000_000_000_000) + Self.idOffset(i) + 900_000 + Int64(k))
      }
      let text = copy.filled([id, token] + ids)
      let path = directory + "/" + id + ".json"
      // Under the file's lock, as every save: the fixed temporary name, no directory read per new
      // file (reading a growing directory for each of N new files cost O(N²)).
      do {
        let lock = try FileLock(for: path)
        defer { withExtendedLifetime(lock) {} }
        try AtomicWriter.write(Array(text.utf8), to: path, sweep: .callerHoldsTheLock)
      } catch { throw SimulateInputError(error.description) }
      let subscriberSeed = rng.next()
      let churns = Double(rng.next() % 1_000_000) / 1_000_000 < mix.autoRenewOff
      // Drawn only for a mix with products, so a population without them stays as it was.
      var purchase: PurchaseRequest?
      if newCustomers {
        var x = rng.unit() * totalWeight
        let product = mix.products.first { x -= $0.weight; return x < 0 } ?? mix.products[mix.products.count - 1]
        purchase = PurchaseRequest(productId: product.id, useIntroductoryOffer: rng.unit() < mix.introOfferRate)
      }
      _ = try SimFileStep.update(path) { (s) throws(ActionError) -> Change? in
        var change = try Simulator.setSettings(s, [("seed", .int(Int64(bitPattern: subscriberSeed))),
                                                   ("failureRate", .number(String(mix.failureRate))),
                                                   ("transactionIdOffset", .int(Self.idOffset(i)))]).get()
        if let purchase {
          let now = (try Simulator.settings(change.state)).now ?? Instant(ms: 0)
          let bought = try Simulator.buy(purchase, state: change.state, at: now).get()
          change = Change(state: bought.state, transactions: change.transactions + bought.transactions,
                          notifications: change.notifications + bought.notifications, message: bought.message)
        }
        if churns {
          let now = (try Simulator.settings(change.state)).now ?? Instant(ms: 0)
          let off = try Actions.apply(.setAutoRenew(false), to: change.state, at: now, timing: TimeRate.realTime).get()
          change = Change(state: off.state, transactions: change.transactions + off.transactions,
                          notifications: change.notifications + off.notifications, message: off.message)
        }
        return change
      }
    }
  }

  /// Subscriber i's ids start at i × 1,000,000 past Apple-style 2…/3… (a million each).
  static func idOffset(_ i: Int) -> Int64 { Int64(i) * 1_000_000 }

  /// Every transactionId and webOrderLineItemId in a state text's subscriber history.
  static func historyIds(_ text: String) -> [String] {
    guard case .object(let doc)? = try? JSONParser.parse(Array(text.utf8)), let sub = doc["subscriber"]?.objectValue else { return [] }
    var ids: [String] = []
    let transactions = (sub["transactions"]?.arrayValue ?? []) + [sub["latestTransaction"]].compactMap { $0 }
    for t in transactions.compactMap(\.objectValue) {
      for key in ["transactionId", "webOrderLineItemId"] {
        if let v = t[key]?.stringValue, !ids.contains(v) { ids.append(v) }
      }
    }
    return ids
  }

  static let placeholderId = "4999999999999999"
  static let placeholderToken = "00000000-0000-4000-8000-999999999999"

  /// The demo file with a customer who never subscribed (its catalog, offer codes and clock),
  /// whose account already has its originalTransactionId and appAccountToken, so the first
  /// purchase gets them rather than a sequence number every file would share.
  static func newCustomerTemplate() throws -> String {
    guard case .object(var doc)? = try? JSONParser.parse(Array(DemoState.json.utf8)) else {
      throw SimulateInputError("the demo subscriber did not parse")
    }
    // The demo's app and environment, which its transactions say and a new account has no
    // transaction to say yet (else new purchases would carry a placeholder bundle id).
    var simulation = doc["simulation"]?.objectValue ?? JSONObject()
    let demoTransaction = doc["subscriber"]?.objectValue?["latestTransaction"]?.objectValue
    if simulation["bundleId"] == nil, let bundle = demoTransaction?["bundleId"] { simulation["bundleId"] = bundle }
    if simulation["environment"] == nil, let environment = demoTransaction?["environment"] { simulation["environment"] = environment }
    doc["simulation"] = .object(simulation)
    doc["subscriber"] = .object(JSONObject([
      ("renewalInfo", .object(JSONObject([("originalTransactionId", .string(placeholderId)), ("appAccountToken", .string(placeholderToken))]))),
      ("notifications", .array([])),
    ]))
    return JSONWriter.string(.object(doc))
  }

  /// Refuses a mix naming a product the demo catalog lacks, before any file is made.
  static func checkProducts(_ mix: Mix, mixPath: String) throws {
    guard !mix.products.isEmpty else { return }
    let state: SubscriptionState
    do { state = try StateFile.decode(Array(DemoState.json.utf8), fileName: "demo", catalogFile: { name throws(StateFileError) in throw StateFileError(file: name, message: "no catalog file") }) } catch {
      throw SimulateInputError("the demo subscriber did not load: \(error.description)")
    }
    for id in mix.products.map(\.id) where state.catalog.product(id) == nil {
      let known = state.catalog.allSubscriptions.map(\.productID).joined(separator: ", ")
      throw SimulateInputError("\(mixPath): $.products.\(id) is not a plan in the demo catalog (\(known))")
    }
  }

  /// A delivery book at the file's history's end, so only what this run writes is sent.
  private func openDeliveryBook(_ path: String, url: String) throws {
    _ = try SimFileStep.update(path) { (s) throws(ActionError) -> Change? in
      guard s.document.deliveries?.url != url else { return nil }
      var next = s
      next.document.deliveries = DeliveryBook(url: url, journalOffset: s.document.journal?.committedBytes ?? 0, schedule: .production)
      return Change(state: next, message: "delivering to \(url)")
    }
  }

  /// Advances one subscriber `months` × 30 days past its own clock, in as many engine steps as
  /// the event limit needs. Returns what happened.
  private func advance(_ path: String) -> Tally {
    var tally = Tally()
    do {
      if let deliverTo { try openDeliveryBook(path, url: deliverTo) }
      let state = try StateFile.load(path: path)
      guard let start = try Simulator.settings(state).now else {
        tally.failures.append("\(path): has no simulated clock")
        return tally
      }
      let target = start + Span.days(Double(30 * months))
      var reached = start
      var timeline = events(state, from: start, to: target)
      // A subscriber who accepts win-back offers looks for one every 30 days of the run (drawn
      // from the file's own seed, after the other events' draws).
      var acceptsWinBack = false
      if mix.winBackAcceptance > 0 {
        var rng = SplitMix(seed: ((try? Simulator.settings(state))?.seed ?? 1) ^ 0x7769_6E62_6163_6B21)
        acceptsWinBack = rng.unit() < mix.winBackAcceptance
      }
      if acceptsWinBack {
        for month in 1...max(1, months) { timeline.append((start + Span.days(Double(30 * month)) - .millisecond, [.acceptAWinBack])) }
        timeline.sort { $0.at < $1.at }
      }
      for event in timeline {
        reached = try advance(path, from: reached, to: event.at, &tally)
        apply(event.commands, to: path, &tally)
      }
      _ = try advance(path, from: reached, to: target, &tally)
      tally.subscriberMonths = Double(months)
    } catch {
      tally.failures.append("\(path): \(error)")
    }
    return tally
  }

  /// Moves one file's clock to `target` in as many engine steps as the event limit needs.
  private func advance(_ path: String, from start: Instant, to target: Instant, _ tally: inout Tally) throws -> Instant {
    var reached = start
    while reached < target {
      guard let change = try SimFileStep.update(path, { (s) throws(ActionError) -> Change? in
        try Simulator.advance(s, to: target)
      }) else { break }
      for n in change.notifications { tally.notifications[n.label, default: 0] += 1 }
      let now = (try? Simulator.settings(change.state).now) ?? target
      if now == reached { break }
      reached = now ?? target
    }
    return max(reached, target)
  }

  /// What happens to this subscriber during the run beyond renewals: the mix's shares, drawn from
  /// the file's own seed so a population is the same for a seed whatever the thread scheduling.
  private func events(_ state: SubscriptionState, from start: Instant, to target: Instant) -> [(at: Instant, commands: [MixCommand])] {
    // Its own stream: the engine draws renewal failures from the same seed.
    var rng = SplitMix(seed: ((try? Simulator.settings(state))?.seed ?? 1) ^ 0x6D69_7865_7665_6E74)
    let span = (target - start).ms
    func when() -> Instant { start + Span(ms: (rng.unit() * span).rounded(.down)) }
    var out: [(at: Instant, commands: [MixCommand])] = []
    if rng.unit() < mix.refundRate { out.append((when(), [.sim(.refund)])) }
    if rng.unit() < mix.priceIncreaseRate {
      out.append((when(), [.sim(.requestPriceIncrease), .sim(rng.unit() < mix.priceIncreaseConsent ? .consentPriceIncrease : .declinePriceIncrease)]))
    }
    if rng.unit() < mix.upgradeRate, let top = topProduct(state) { out.append((when(), [.plan(.upgrade(toProductId: top))])) }
    // Drawn only when asked for, so a mix without them draws what it always did.
    if mix.offerCodeRate > 0, rng.unit() < mix.offerCodeRate { out.append((when(), [.redeemACode(draw: rng.unit())])) }
    return out.sorted { $0.at < $1.at }
  }

  enum MixCommand {
    case sim(SimCommand)
    case plan(PlanAction)
    /// One of the file's offer codes still redeemable, chosen by `draw` (0..<1) among them.
    case redeemACode(draw: Double)
    /// The first win-back offer the App Store offers this subscriber now, if it has lapsed and
    /// one is offered (nothing happens otherwise: not a skip).
    case acceptAWinBack
  }

  /// The codes a customer could type today: custom codes, and one-time codes not yet redeemed.
  static func availableCodes(_ s: SubscriptionState, at now: Instant) -> [String] {
    s.document.offerCodes.filter { $0.expiresDate.map { $0 > now } ?? true }.flatMap { batch -> [String] in
      switch batch.kind {
      case .custom: return batch.code.map { [$0] } ?? []
      case .oneTime: return batch.codes.filter { !batch.redeemedCodes.contains($0) }
      }
    }
  }

  /// The highest level of the subscriber's group other than its own plan, if any is higher.
  private func topProduct(_ state: SubscriptionState) -> String? {
    guard let current = state.currentProduct, let group = state.catalog.group(of: current.productID) else { return nil }
    return group.subscriptions.filter { $0.level < current.level }.min { $0.level < $1.level }?.productID
  }

  /// Applies the commands at the file's clock; one the state does not allow (a refund of an
  /// expired subscription, an upgrade in billing retry) is counted as skipped, not a failure.
  private func apply(_ commands: [MixCommand], to path: String, _ tally: inout Tally) {
    for command in commands {
      do {
        let change = try SimFileStep.update(path) { (s) throws(ActionError) -> Change? in
          let now = try Simulator.clock(s)
          switch command {
          case .sim(let c): return try Simulator.apply(c, to: s, at: now).get()
          case .plan(let a): return try Actions.apply(a, to: s, at: now, timing: Simulator.timing(s)).get()
          case .redeemACode(let draw):
            let codes = Self.availableCodes(s, at: now)
            guard !codes.isEmpty else { throw ActionError.other("no offer code to redeem") }
            let code = codes[min(codes.count - 1, Int(draw * Double(codes.count)))]
            return try Actions.apply(.redeemOfferCode(code), to: s, at: now, timing: Simulator.timing(s)).get()
          case .acceptAWinBack:
            guard let offer = s.subscriber.renewalInfo?.eligibleWinBackOfferIds?.first else { return nil }
            return try Actions.apply(.acceptWinBack(offerId: offer), to: s, at: now, timing: Simulator.timing(s)).get()
          }
        }
        for n in change?.notifications ?? [] { tally.notifications[n.label, default: 0] += 1 }
      } catch {
        tally.skipped += 1
      }
    }
  }

  struct Tally {
    var skipped = 0
    var notifications: [String: Int] = [:]
    var subscriberMonths = 0.0
    var failures: [String] = []
  }

  /// One slot per worker: each worker writes only its own.
  final class Tallies: @unchecked Sendable {
    private var slots: [Tally]
    init(count: Int) { slots = Array(repeating: Tally(), count: count) }
    func record(_ worker: Int, _ t: Tally) {
      slots[worker].subscriberMonths += t.subscriberMonths
      slots[worker].failures += t.failures
      slots[worker].skipped += t.skipped
      for (k, v) in t.notifications { slots[worker].notifications[k, default: 0] += v }
    }
    var all: [Tally] { slots }
  }
}
