import CoreValues
import DashModel
/// What one or more inputs hold, before merging: payloads with their provenance attached
/// (`importedFrom`), plus what cannot become App Store payloads.
public struct ImportedItems: Sendable {
  public var transactions: [TransactionPayload] = []
  public var renewalInfos: [RenewalInfoPayload] = []
  /// Notifications with the originalTransactionId of the transaction they carried, when known.
  public var notifications: [(record: NotificationRecord, originalTransactionId: String?)] = []
  /// Non-App-Store purchases from a RevenueCat customer, kept as RevenueCat wrote them.
  public var otherStores: [JSONObject] = []
  /// originalTransactionIds an API response named without a decodable payload (statuses).
  public var namedSubscribers: [String] = []
  /// One line each: things skipped on purpose (placeholder strings in Apple's sample responses).
  public var warnings: [String] = []
  /// The inputs read, for the document's `imported.sources`.
  public var sources: [Provenance] = []

  public init() {}

  public mutating func append(_ other: ImportedItems) {
    transactions += other.transactions
    renewalInfos += other.renewalInfos
    notifications += other.notifications
    otherStores += other.otherStores
    namedSubscribers += other.namedSubscribers
    warnings += other.warnings
    sources += other.sources
  }
}
