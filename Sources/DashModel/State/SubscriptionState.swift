/// A loaded state: the document plus its resolved catalog. This is what lifecycle rules, actions
/// and the simulation engine take as input (with `now`), and what they return.
public struct SubscriptionState: Equatable, Sendable {
  public var document: StateDocument
  public let catalog: Catalog

  public init(document: StateDocument, catalog: Catalog) {
    self.document = document
    self.catalog = catalog
  }

  public var subscriber: Subscriber {
    get { document.subscriber }
    set { document.subscriber = newValue }
  }

  /// Win-back offers from the catalog and from the state file, for every product.
  public var allWinBackOffers: [WinBackOffer] {
    catalog.allSubscriptions.flatMap(\.winBackOffers) + document.winBackOffers
  }

  /// The whole history's summary: inline transactions folded, then the journal's totals, then
  /// the latest transaction when the history lacks it (its counts stay those of the history).
  public var historySummary: HistorySummary {
    recordedHistory.including(latest: subscriber.latestTransaction)
  }

  /// What the inline history and the journal hold, nothing else.
  private var recordedHistory: HistorySummary {
    var inline = document.subscriber.transactions.summary
    inline.notificationCount = document.subscriber.notifications.count
    guard let j = document.journal else { return inline }
    return inline.merged(with: j.summary)
  }

  /// Whether SubDash holds the subscription's history back to its first purchase. Files from the
  /// App Store Server API (Get All Subscription Statuses) hold only `latestTransaction` and
  /// `renewalInfo`; then paid time and earlier win-back redemptions are unknown, and Apple's
  /// `eligibleWinBackOfferIds` is the better answer. Incomplete: no inline history (transactions or
  /// notifications: a young subscriber's history is inline, `StateFile.inlineHistoryLimit`) and no journal,
  /// or the first purchase they hold is later than the latest transaction's `originalPurchaseDate`.
  public var historyIsComplete: Bool {
    let recorded = recordedHistory
    guard document.journal != nil || recorded.transactionCount > 0 || recorded.notificationCount > 0 else { return false }
    guard let original = subscriber.latestTransaction?.originalPurchaseDate, let first = recorded.firstPurchase else { return true }
    return first <= original
  }

  /// This state without its inline transaction history, for a viewer that keeps a state in memory
  /// for hours: everything on screen comes from the latest transaction, the renewal info and the
  /// history's summary, which is kept, so the report and every action preview are unchanged. A
  /// 100,000-transaction file otherwise keeps ~400 MiB alive (twice that while a reload parses the
  /// next version). Never write this copy back: saves go through `StateFile.update`, which
  /// re-reads the file, so nothing outside it can.
  public func forViewing() -> SubscriptionState {
    var copy = self
    guard !copy.document.subscriber.transactions.isEmpty else { return copy }
    copy.document.subscriber.transactions.dropEntriesKeepingSummary()
    copy.document.subscriber.source["transactions"] = nil
    copy.document.source["subscriber"] = nil  // the document's raw copy; `json` writes `subscriber` from the typed one
    return copy
  }

  public var currentProduct: SubscriptionProduct? { catalog.product(subscriber.latestTransaction?.productId) }
  public var currentGroup: SubscriptionGroup? {
    catalog.group(of: subscriber.latestTransaction?.productId) ?? catalog.groups.first
  }
}
