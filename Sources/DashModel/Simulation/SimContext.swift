import CoreValues
/// One simulation step in progress: the state being changed, its settings, and the history and
/// notifications produced so far. Everything the engine does goes through here, so ids, summary
/// counts and notification statuses stay consistent however many events one step applies.
struct SimContext {
  var state: SubscriptionState
  var settings: SimulationSettings
  var rules: SimulationRules
  private(set) var transactions: [TransactionPayload] = []
  private(set) var notifications: [NotificationRecord] = []
  var messages: [String] = []
  /// The status-line message for a step whose first notification does not say what the step did
  /// (expire now starts with AUTO_RENEW_DISABLED); nil: the first notification's summary.
  var headline: String?
  /// The history's totals including what this step added (ids are numbered from it).
  private(set) var summary: HistorySummary
  /// Only what this step added, continuing the paid-time fold where the history left off.
  private(set) var added: HistorySummary

  /// `readOnly` contexts only answer questions (clock, rules), which are fine on Production data;
  /// anything that could change the state refuses it.
  /// `opening`: the moment the caller shows the file at (the dashboard's `now`, the moment
  /// `subdash simulate` started); it only matters for a file without a simulated clock.
  init(_ state: SubscriptionState, readOnly: Bool = false, opening: Instant? = nil) throws(ActionError) {
    if !readOnly { try Simulator.requireSimulatable(state) }
    self.state = state
    self.opening = opening
    do {
      settings = try SimulationSettings(of: state)
      rules = try SimulationRules(settings: settings, catalog: state.catalog)
    } catch {
      throw ActionError.badSetting(path: "\(error.path)", message: error.message)
    }
    summary = state.historySummary
    added = HistorySummary()
    added.paidUntil = summary.paidUntil
    added.lastPaidMillis = summary.lastPaidMillis
    adoptBillingIssueFromFile()
    adoptPriceIncreaseFromFile()
  }

  private let opening: Instant?

  /// The virtual clock: the settings' `now`, else the stated starting moment
  /// (`Simulator.startingClock`), so no entry point starts before what the caller showed.
  var now: Instant {
    settings.now ?? Simulator.startingClock(state, opening: opening)
  }

  /// The time of the last event applied in this step, if any.
  var lastEventDate: Instant?

  /// Where this step has got to: the clock, or the last applied event when that is later.
  var reached: Instant { max(now, lastEventDate ?? now) }

  var latest: TransactionPayload? { state.subscriber.latestTransaction }

  var renewalInfo: RenewalInfoPayload {
    get { state.subscriber.renewalInfo ?? RenewalInfoPayload() }
    set { state.subscriber.renewalInfo = newValue }
  }

  // MARK: History

  var nextTransactionSequence: Int { summary.transactionCount }

  /// Makes `t` the latest transaction and appends it to the history. A changed copy of the
  /// latest transaction (a refund's revocation) is appended the same way: the summary's overlap
  /// rule counts its paid time once, up to the revocation.
  mutating func record(_ t: TransactionPayload) {
    state.subscriber.latestTransaction = t
    transactions.append(t)
    summary.add(t)
    added.add(t)
  }

  /// Appends a new version of an earlier transaction (refunded after its period) to the history
  /// without making it the latest: the subscription goes on from the latest transaction.
  mutating func restate(_ t: TransactionPayload) {
    transactions.append(t)
    summary.add(t)
    added.add(t)
  }

  /// The state as rules that read `historySummary` (win-back eligibility) must see it, with the
  /// history this step added but has not yet written to the journal.
  var evaluationState: SubscriptionState {
    guard !transactions.isEmpty else { return state }
    var s = state
    var journal = s.document.journal ?? JournalInfo(file: "pending")
    journal.summary = journal.summary.merged(with: added)
    s.document.journal = journal
    return s
  }

  /// Emits a notification signed at `date`, with the status the subscriber has at that moment.
  /// `extra`: payload fields of this notification type (CONSUMPTION_REQUEST's reason), kept beside
  /// `status` in the log's flattened form.
  /// `productId`: the product the event concerns when it is not the latest transaction's (the
  /// REFUND of an earlier transaction).
  mutating func notify(_ type: NotificationType, _ subtype: NotificationSubtype? = nil, at date: Instant, summary text: String,
                       extra: [(String, JSON)] = [], productId: String? = nil) {
    let status = Lifecycle.status(of: state.subscriber, at: date).status
    let product = productId ?? latest?.productId ?? state.subscriber.renewalInfo?.productId
    var record = PayloadFactory.notification(
      type, subtype, sequence: summary.notificationCount, seed: settings.seed, subscriber: state.subscriber,
      at: date, status: status, productId: product, summary: text)
    for (key, value) in extra { record.source[key] = value }
    notifications.append(record)
    summary.notificationCount += 1
  }

  // MARK: Catalog lookups

  func product(_ id: String?) -> SubscriptionProduct? { state.catalog.product(id) }

  func period(of productId: String?) -> ISOPeriod {
    guard let p = product(productId), let period = try? ISOPeriod(parsing: p.period) else { return .oneMonth }
    return period
  }

  /// The regular price of a product: an increase that took effect, else the catalog's.
  func regularPrice(_ productId: String) -> Int64? {
    settings.priceOverride(for: productId) ?? product(productId)?.priceMilli
  }

  var currency: String {
    latest?.currency ?? state.subscriber.renewalInfo?.currency ?? settings.currency ?? "USD"
  }

  // MARK: Finishing

  /// The change so far, with the clock at `now` and settings written back.
  func change(now: Instant, message: String) -> Change {
    var s = state
    var settings = self.settings
    settings.now = now
    s.setSimulation(settings)
    AppTransactionIdentity.stampRenewalInfo(&s)
    return Change(state: s, transactions: transactions, notifications: notifications, message: message)
  }

  /// A file whose renewal info says "billing retry" but whose simulation has no record of the
  /// failure (hand-written, or copied from a real payload) gets one, so its grace and retry end.
  private mutating func adoptBillingIssueFromFile() {
    guard settings.billingIssue == nil, let info = state.subscriber.renewalInfo, info.isInBillingRetryPeriod == true,
          let t = latest, t.revocationDate == nil, let since = t.expiresDate else { return }
    var issue = BillingIssue(
      since: since, gracePeriodExpiresDate: info.gracePeriodExpiresDate,
      retryExpiresDate: since + rules.retryLength, recoverAt: nil)
    if let g = info.gracePeriodExpiresDate, g <= now { issue.graceExpired = true }
    settings.billingIssue = issue
  }

  /// Likewise a price increase announced in renewal info (priceIncreaseStatus 0 or 1) that the
  /// simulation did not request: the announced renewalPrice is the new price.
  private mutating func adoptPriceIncreaseFromFile() {
    guard settings.pendingPriceIncrease == nil, let info = state.subscriber.renewalInfo, let status = info.priceIncreaseStatus,
          let productId = info.autoRenewProductId ?? latest?.productId,
          let price = info.renewalPrice ?? regularPrice(productId) else { return }
    settings.pendingPriceIncrease = PendingPriceIncrease(
      productId: productId, newPriceMilli: price, requestedDate: info.signedDate ?? now,
      response: status == .customerConsented ? .accepted : .pending)
  }
}
