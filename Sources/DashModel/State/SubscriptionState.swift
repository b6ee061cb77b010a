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

  /// The whole history's summary: inline transactions folded, then the journal's totals.
  public var historySummary: HistorySummary {
    var inline = document.subscriber.transactions.summary
    inline.notificationCount = document.subscriber.notifications.count
    guard let j = document.journal else { return inline }
    return inline.merged(with: j.summary)
  }

  public var currentProduct: SubscriptionProduct? { catalog.product(subscriber.latestTransaction?.productId) }
  public var currentGroup: SubscriptionGroup? {
    catalog.group(of: subscriber.latestTransaction?.productId) ?? catalog.groups.first
  }
}
