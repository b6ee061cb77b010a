import CoreValues
/// The simulation engine: pure functions from a state (and a target time) to a `Change`. It
/// never reads the wall clock; `simulation.now` in the document is the virtual clock, and every
/// notification is signed at the virtual time of the event that caused it.
///
/// Every entry point that changes the state refuses Production data
/// (`ActionError.productionData`); the read-only ones (clock, rules, nextEvent) answer for any file.
public enum Simulator {
  /// Refuses Production data up front, with the same error every changing entry point gives.
  /// `subdash simulate` calls it before each step, so a Production file is refused even when
  /// nothing is due (the read-only `nextEvent` alone would answer "nothing scheduled", exit 0).
  public static func requireSimulatable(_ state: SubscriptionState) throws(ActionError) {
    if state.subscriber.environment == .production { throw ActionError.productionData("Simulation") }
  }

  /// The next thing the App Store will do on its own, if anything is scheduled. It may lie before
  /// the clock (a period that ended while nobody simulated): `advance` applies it at its own time.
  public static func nextEvent(_ state: SubscriptionState, opening: Instant? = nil) throws(ActionError) -> SimEvent? {
    try SimContext(state, readOnly: true, opening: opening).pendingEvents().first
  }

  /// The virtual clock of a state: `simulation.now`, else `startingClock(state, opening:)`.
  /// It needs only `simulation.now`, so a bad rate or grace setting does not hide the clock.
  public static func clock(_ state: SubscriptionState, opening: Instant? = nil) throws(ActionError) -> Instant {
    let settings: SimulationSettings
    do { settings = try SimulationSettings(of: state) } catch { throw ActionError.badSetting(path: "\(error.path)", message: error.message) }
    return settings.now ?? startingClock(state, opening: opening)
  }

  /// Where the simulated clock starts on a file that has none (no `simulation.now`): the later of
  /// the file's newest date (latest transaction's purchase or signing, renewal info's signing)
  /// and `opening`, the moment the caller shows the file at (the dashboard's clock, the moment
  /// `subdash simulate` started). One rule for `>`, `+`, every other key and `simulate`, so the
  /// first step never sets the clock earlier than the screen already showed (nil: the file alone).
  public static func startingClock(_ state: SubscriptionState, opening: Instant?) -> Instant {
    let t = state.subscriber.latestTransaction
    let newest = [t?.purchaseDate, t?.signedDate, state.subscriber.renewalInfo?.signedDate].compactMap { $0 }.max()
    switch (newest, opening) {
    case let (n?, o?): return max(n, o)
    case let (n?, nil): return n
    case let (nil, o?): return o
    case (nil, nil): return Instant.epoch
    }
  }

  /// Whether `state` has its own simulated clock (`simulation.now`); without one the first step
  /// starts it at `startingClock` and says so.
  public static func hasClock(_ state: SubscriptionState) -> Bool {
    (try? SimulationSettings(of: state))?.now != nil
  }

  /// The settings resolved against the catalog: the rate (pass it to `Actions.apply` as
  /// `timing`), grace, failures, Ask to Buy and the renewal cap in force.
  public static func rules(_ state: SubscriptionState) throws(ActionError) -> SimulationRules {
    try SimContext(state, readOnly: true).rules
  }

  /// How fast subscription time runs for this file: its simulation rate, else real time (a file
  /// whose settings do not read is shown and acted on at real time, as the dashboard does).
  public static func timing(_ state: SubscriptionState) -> any RenewalTiming {
    (try? rules(state).rate) ?? TimeRate.realTime
  }

  /// The currency a purchase would be charged in: the latest transaction's, the renewal info's,
  /// `simulation.currency`, else USD (the engine's rule), so prices always show one, even for a
  /// customer who never bought anything.
  public static func currency(_ state: SubscriptionState) -> String {
    let s = state.subscriber
    return s.latestTransaction?.currency ?? s.renewalInfo?.currency ?? (try? SimulationSettings(of: state))?.currency ?? "USD"
  }

  /// The settings of a state, as written in its `simulation` object.
  public static func settings(_ state: SubscriptionState) throws(ActionError) -> SimulationSettings {
    do { return try SimulationSettings(of: state) } catch { throw ActionError.badSetting(path: "\(error.path)", message: error.message) }
  }

  /// Applies everything due up to `target`, in order, then sets the clock to `target`. The clock
  /// never moves back: a target before it only applies overdue events.
  public static func advance(_ state: SubscriptionState, to target: Instant, opening: Instant? = nil) throws(ActionError) -> Change {
    try advance(state, to: target, opening: opening, limit: SimContext.eventLimit)
  }

  /// `advance` applying at most `limit` events; past it the clock stops at the last one applied
  /// (the message says so), so a long step can be saved in parts (`advancePart`).
  static func advance(_ state: SubscriptionState, to target: Instant, opening: Instant?, limit: Int) throws(ActionError) -> Change {
    guard target <= Instant.fileRange.upperBound else {
      throw ActionError.simulator(.pastLastFileDate(Format.date(target)))
    }
    var ctx = try SimContext(state, opening: opening)
    try ctx.catchUpOverdue()
    let end = max(target, ctx.now)
    let lapse = ctx.askToBuyLapse(after: ctx.now, upTo: end)
    let applied = ctx.run(until: end, limit: limit)
    var clock = end
    var message = applied == 0
      ? "Advanced to \(Format.date(end)); " + (lapse ?? "nothing happened")
      : "Advanced to \(Format.date(end)): \(describe(ctx))" + (lapse.map { "; \($0)" } ?? "")
    if applied == limit, let next = ctx.pendingEvents().first, next.date <= end {
      clock = ctx.reached
      message = "Stopped after \(counted(applied, "event")) at \(Format.date(clock)); advance again to continue"
    }
    ctx.refreshWinBack(at: clock)
    return ctx.change(now: clock, message: message)
  }

  /// Applies the next event (and any other at the same instant) and moves the clock there.
  public static func advanceToNextEvent(_ state: SubscriptionState, opening: Instant? = nil) throws(ActionError) -> Change {
    var ctx = try SimContext(state, opening: opening)
    guard let next = ctx.pendingEvents().first else {
      // An Ask to Buy request nobody answers lapses after 24 hours: the one thing still ahead.
      if let request = ctx.state.subscriber.askToBuy, request.isPending(at: ctx.now),
         let lapse = ctx.askToBuyLapse(after: ctx.now, upTo: request.lapseDate) {
        return ctx.change(now: request.lapseDate, message: lapse.prefix(1).uppercased() + lapse.dropFirst())
      }
      throw ActionError.simulator(.nothingScheduled)
    }
    let at = max(next.date, ctx.now)
    ctx.run(until: next.date)
    ctx.refreshWinBack(at: at)
    return ctx.change(now: at, message: "\(next.kind) at \(Format.date(next.date)): \(describe(ctx))")
  }

  /// The dashboard's entry point: applies due events up to `now`, then the command, then any
  /// event the command made due (expire now). Production data is refused with a message.
  public static func apply(_ cmd: SimCommand, to state: SubscriptionState, at now: Instant) -> Result<Change, ActionError> {
    switch cmd {
    case .advanceToNextEvent:
      return Result { () throws(ActionError) in try advanceToNextEvent(state, opening: now) }.map { startedClock($0, on: state, opening: now) }
    case .advance(let span):
      return Result { () throws(ActionError) in
        let clock = try Simulator.clock(state, opening: now)
        return try advance(state, to: max(clock, now) + span, opening: now)
      }.map { startedClock($0, on: state, opening: now) }
    case .failNextRenewal: return act(state, at: now) { (c, _) throws(ActionError) in try c.failNextRenewal() }
    case .renewalsSucceed: return act(state, at: now) { (c, _) throws(ActionError) in try c.renewalsSucceed() }
    case .resolveBillingIssue: return act(state, at: now) { (c, d) throws(ActionError) in try c.recover(at: d) }
    case .expireNow: return act(state, at: now) { (c, d) throws(ActionError) in try c.expireNow(at: d) }
    case .refund: return act(state, at: now) { (c, d) throws(ActionError) in try c.refund(at: d) }
    case .requestRefund(let reason): return act(state, at: now) { (c, d) throws(ActionError) in try c.requestRefund(at: d, reason: reason) }
    case .declineRefund: return act(state, at: now) { (c, d) throws(ActionError) in try c.declineRefund(at: d) }
    case .reverseRefund: return act(state, at: now) { (c, d) throws(ActionError) in try c.reverseRefund(at: d) }
    case .refundProrated: return act(state, at: now) { (c, d) throws(ActionError) in try c.refund(at: d, prorated: true) }
    case .requestPriceIncrease: return act(state, at: now) { (c, d) throws(ActionError) in try c.requestPriceIncrease(at: d, newPrice: nil) }
    case .consentPriceIncrease: return act(state, at: now) { (c, d) throws(ActionError) in try c.consentPriceIncrease(at: d) }
    case .declinePriceIncrease: return act(state, at: now) { (c, d) throws(ActionError) in try c.declinePriceIncrease(at: d) }
    case .approveAskToBuy: return act(state, at: now) { (c, d) throws(ActionError) in try c.approveAskToBuy(at: d) }
    case .declineAskToBuy: return act(state, at: now) { (c, d) throws(ActionError) in try c.declineAskToBuy(at: d) }
    }
  }

  // MARK: Steps that scenarios use beyond the dashboard's keys

  public static func buy(_ request: PurchaseRequest, state: SubscriptionState, at now: Instant) -> Result<Change, ActionError> {
    act(state, at: now) { (c, d) throws(ActionError) in try c.buy(request, at: d) }
  }

  public static func refund(_ state: SubscriptionState, reason: RevocationReason, at now: Instant) -> Result<Change, ActionError> {
    act(state, at: now) { (c, d) throws(ActionError) in try c.refund(at: d, reason: reason) }
  }

  /// Refunds the chosen transaction (`SimContext.refund(transaction:)`): the latest ends access,
  /// an earlier one is revoked alone.
  public static func refund(transaction t: TransactionPayload, prorated: Bool, state: SubscriptionState, at now: Instant) -> Result<Change, ActionError> {
    act(state, at: now) { (c, d) throws(ActionError) in try c.refund(transaction: t, prorated: prorated, at: d) }
  }

  public static func revokeFamilySharing(_ state: SubscriptionState, purchaserRefund: RevocationReason? = nil, at now: Instant) -> Result<Change, ActionError> {
    act(state, at: now) { (c, d) throws(ActionError) in try c.revokeFamilySharing(at: d, purchaserRefund: purchaserRefund) }
  }

  public static func forceRenewal(_ state: SubscriptionState, at now: Instant) -> Result<Change, ActionError> {
    act(state, at: now) { (c, d) throws(ActionError) in try c.forceRenewal(at: d) }
  }

  public static func requestPriceIncrease(_ state: SubscriptionState, newPrice: Int64?, consentRequired: Bool, at now: Instant) -> Result<Change, ActionError> {
    act(state, at: now) { (c, d) throws(ActionError) in try c.requestPriceIncrease(at: d, newPrice: newPrice, consentRequired: consentRequired) }
  }

  /// Send Consumption Information arrived at `now` for `transactionId` (the one the pending refund
  /// request names): kept in the request, dated at the file's clock when that is later.
  public static func recordConsumption(_ info: ConsumptionInformation, transactionId: String, in state: SubscriptionState,
                                       at now: Instant) -> Result<Change, ActionError> {
    act(state, at: now) { (c, d) throws(ActionError) in
      var received = info
      received.receivedDate = d
      try c.recordConsumption(received, transactionId: transactionId)
    }
  }

  /// Changes simulation settings (rate, grace, outcomes …) without moving the clock.
  public static func configure(_ state: SubscriptionState, _ edit: (inout SimulationSettings) -> Void) -> Result<Change, ActionError> {
    Result { () throws(ActionError) in
      var ctx = try SimContext(state)
      edit(&ctx.settings)
      do throws(DecodeError) {
        ctx.rules = try SimulationRules(settings: ctx.settings, catalog: state.catalog)
      } catch {
        throw ActionError.badSetting(path: "\(error.path)", message: error.message)
      }
      return ctx.change(now: ctx.now, message: "Simulation settings changed")
    }
  }

  /// Runs due events up to `now`, one action at `now`, then whatever the action made due.
  static func act(
    _ state: SubscriptionState, at now: Instant, _ body: (inout SimContext, Instant) throws(ActionError) -> Void
  ) -> Result<Change, ActionError> {
    Result { () throws(ActionError) in
      var ctx = try SimContext(state, opening: now)
      try ctx.catchUpOverdue()
      let at = max(now, ctx.now)
      ctx.run(until: at)
      let before = ctx.notifications.count
      try body(&ctx, at)
      ctx.run(until: at)
      ctx.refreshWinBack(at: at)
      let mine = Array(ctx.notifications[before...])
      let message = ctx.headline ?? (mine.map { $0.summary ?? $0.label } + ctx.messages).first ?? "Done"
      return startedClock(ctx.change(now: at, message: message.prefix(1).uppercased() + message.dropFirst()), on: state, opening: now)
    }
  }

  /// A step on a file without a simulated clock says where the clock started.
  static func startedClock(_ change: Change, on before: SubscriptionState, opening: Instant) -> Change {
    guard !hasClock(before) else { return change }
    var c = change
    c.message = "Clock started at \(Format.date(startingClock(before, opening: opening))) (the file had none). \(c.message)"
    return c
  }

  /// A one-line account of what a step did, for the status line.
  static func describe(_ ctx: SimContext) -> String {
    let labels = ctx.notifications.map(\.label)
    guard !labels.isEmpty else { return ctx.messages.first ?? "no notifications" }
    if labels.count <= 3 { return labels.joined(separator: ", ") }
    return "\(labels.count) notifications, last \(labels.last!)"
  }
}
