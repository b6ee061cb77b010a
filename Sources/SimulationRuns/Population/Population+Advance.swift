import CoreValues
import DashModel
import SubscriberStorage
/// Moving one member through the run: its clock `months` × 30 days on, with the mix's events at
/// the moments drawn from its own seed, every step one write through the subscriber store.
extension Population {
  /// What happened to one member during the run.
  public struct Tally: Sendable, Equatable {
    public var skipped = 0
    public var notifications: [String: Int] = [:]
    public var subscriberMonths = 0.0
    public var failures: [String] = []
    public init() {}

    public mutating func add(_ t: Tally) {
      subscriberMonths += t.subscriberMonths
      failures += t.failures
      skipped += t.skipped
      for (k, v) in t.notifications { notifications[k, default: 0] += v }
    }
  }

  /// What the mix makes happen to a member beyond renewals.
  public enum Event: Equatable, Sendable {
    case sim(SimCommand)
    case plan(PlanAction)
    /// One of the file's offer codes still redeemable, chosen by `draw` (0..<1) among them.
    case redeemACode(draw: Double)
    /// The first win-back offer the App Store offers this subscriber now, if it has lapsed and
    /// one is offered (nothing happens otherwise: not a skip).
    case acceptAWinBack
  }

  /// Advances member `name` and says what happened. Never throws: a member that cannot be
  /// advanced is a failure in its tally, and the others go on.
  public func advance(_ name: String) -> Tally {
    var tally = Tally()
    do throws(PopulationError) {
      if let deliverTo { try openDeliveryBook(name, url: deliverTo) }
      let state: SubscriptionState
      do {
        guard let s = try store.get(name) else { throw PopulationError("\(name): no such state file") }
        state = s.state
      } catch let e as PopulationError { throw e } catch { throw PopulationError("\(error)") }
      guard let start = (try? Simulator.settings(state))?.now else {
        tally.failures.append("\(store.path(of: name)): has no simulated clock")
        return tally
      }
      let target = start + Span.days(Double(30 * months))
      var reached = start
      for event in timeline(state, from: start, to: target) {
        reached = try advance(name, from: reached, to: event.at, &tally)
        apply(event.events, to: name, &tally)
      }
      _ = try advance(name, from: reached, to: target, &tally)
      tally.subscriberMonths = Double(months)
    } catch {
      tally.failures.append("\(store.path(of: name)): \(error.message)")
    }
    return tally
  }

  /// The member's events and their moments: the mix's shares, drawn from the member's own seed (a
  /// stream apart from the engine's renewal draws), sorted by time.
  public func timeline(_ state: SubscriptionState, from start: Instant, to target: Instant) -> [(at: Instant, events: [Event])] {
    let memberSeed = (try? Simulator.settings(state))?.seed ?? 1
    var rng = SplitMix(seed: memberSeed ^ 0x6D69_7865_7665_6E74)
    let span = (target - start).ms
    func when() -> Instant { start + Span(ms: (rng.unit() * span).rounded(.down)) }
    var out: [(at: Instant, events: [Event])] = []
    if rng.unit() < mix.refundRate { out.append((when(), [.sim(.refund)])) }
    if rng.unit() < mix.priceIncreaseRate {
      out.append((when(), [.sim(.requestPriceIncrease), .sim(rng.unit() < mix.priceIncreaseConsent ? .consentPriceIncrease : .declinePriceIncrease)]))
    }
    if rng.unit() < mix.upgradeRate, let top = Self.topProduct(state) { out.append((when(), [.plan(.upgrade(toProductId: top))])) }
    // Drawn only when asked for, so a mix without them draws what it always did.
    if mix.offerCodeRate > 0, rng.unit() < mix.offerCodeRate { out.append((when(), [.redeemACode(draw: rng.unit())])) }
    out.sort { $0.at < $1.at }
    // A member who accepts win-back offers looks for one every 30 days of the run (its own stream).
    if mix.winBackAcceptance > 0 {
      var winBack = SplitMix(seed: memberSeed ^ 0x7769_6E62_6163_6B21)
      if winBack.unit() < mix.winBackAcceptance {
        for month in 1...max(1, months) { out.append((start + Span.days(Double(30 * month)) - .millisecond, [.acceptAWinBack])) }
        out.sort { $0.at < $1.at }
      }
    }
    return out
  }

  /// The codes a customer could type today: custom codes, and one-time codes not yet redeemed.
  public static func availableCodes(_ s: SubscriptionState, at now: Instant) -> [String] {
    s.document.offerCodes.filter { $0.expiresDate.map { $0 > now } ?? true }.flatMap { batch -> [String] in
      switch batch.kind {
      case .custom: return batch.code.map { [$0] } ?? []
      case .oneTime: return batch.codes.filter { !batch.redeemedCodes.contains($0) }
      }
    }
  }

  /// The highest level of the subscriber's group other than its own plan, if any is higher.
  static func topProduct(_ state: SubscriptionState) -> String? {
    guard let current = state.currentProduct, let group = state.catalog.group(of: current.productID) else { return nil }
    return group.subscriptions.filter { $0.level < current.level }.min { $0.level < $1.level }?.productID
  }

  /// One event's change at the member's clock, nil when there is nothing to do.
  public static func change(_ event: Event, _ s: SubscriptionState) throws(ActionError) -> Change? {
    let now = try Simulator.clock(s)
    switch event {
    case .sim(let c): return try Simulator.apply(c, to: s, at: now).get()
    case .plan(let a): return try Actions.apply(a, to: s, at: now, timing: Simulator.timing(s)).get()
    case .redeemACode(let draw):
      let codes = availableCodes(s, at: now)
      guard !codes.isEmpty else { throw ActionError.other("no offer code to redeem") }
      let code = codes[min(codes.count - 1, Int(draw * Double(codes.count)))]
      return try Actions.apply(.redeemOfferCode(code), to: s, at: now, timing: Simulator.timing(s)).get()
    case .acceptAWinBack:
      guard let offer = s.subscriber.renewalInfo?.eligibleWinBackOfferIds?.first else { return nil }
      return try Actions.apply(.acceptWinBack(offerId: offer), to: s, at: now, timing: Simulator.timing(s)).get()
    }
  }

  /// Applies the events at the member's clock; one the state does not allow (a refund of an
  /// expired subscription, an upgrade in billing retry) is counted as skipped, not a failure.
  private func apply(_ events: [Event], to name: String, _ tally: inout Tally) {
    for event in events {
      do throws(PopulationError) {
        let change = try step(name) { (s) throws(ActionError) -> Change? in try Self.change(event, s) }
        for n in change?.notifications ?? [] { tally.notifications[n.label, default: 0] += 1 }
      } catch {
        tally.skipped += 1
      }
    }
  }

  /// Moves one member's clock to `target` in as many engine steps as the event limit needs.
  private func advance(_ name: String, from start: Instant, to target: Instant, _ tally: inout Tally) throws(PopulationError) -> Instant {
    var reached = start
    while reached < target {
      guard let change = try step(name, { (s) throws(ActionError) -> Change? in try Simulator.advance(s, to: target) }) else { break }
      for n in change.notifications { tally.notifications[n.label, default: 0] += 1 }
      let now = (try? Simulator.settings(change.state).now) ?? target
      if now == reached { break }
      reached = now
    }
    return max(reached, target)
  }

  /// A delivery book at the file's history's end, so only what this run writes is sent.
  private func openDeliveryBook(_ name: String, url: String) throws(PopulationError) {
    _ = try step(name) { (s) throws(ActionError) -> Change? in
      guard s.document.deliveries?.url != url else { return nil }
      var next = s
      next.document.deliveries = DeliveryBook(url: url, journalOffset: s.document.journal?.committedBytes ?? 0, schedule: .production)
      return Change(state: next, message: "delivering to \(url)")
    }
  }

  /// One write through the store on the member's latest state; nil when nothing was due.
  private func step(_ name: String, _ compute: (SubscriptionState) throws(ActionError) -> Change?) throws(PopulationError) -> Change? {
    switch store.update(existing: name, wait: .bounded, { (s) throws(ActionError) -> SubscriberEdit in try compute(s).map(SubscriberEdit.save) ?? .leave }) {
    case .applied(let c), .created(let c): return c
    case .unchanged: return nil
    case .refused(let refusal):
      if case .badSetting = refusal { throw PopulationError("\(store.path(of: name)): \(refusal.message)") }
      throw PopulationError(refusal.message)
    case .busy(let e), .failed(let e): throw PopulationError(e.description)
    }
  }
}
