/// Apple's `previousOriginalTransactionId` (App Store Server API, 2025-03): on a subscription that
/// replaced another (a migration), the originalTransactionId of the one it replaced. Transactions
/// and renewal info may carry it; the latest transaction's wins, as it is the newest word.
public enum PreviousOriginalTransaction {
  public static let key = "previousOriginalTransactionId"

  public static func id(of subscriber: Subscriber) -> String? {
    let value = subscriber.latestTransaction?.source[key] ?? subscriber.renewalInfo?.source[key]
    guard let id = value?.stringValue, !id.isEmpty else { return nil }
    return id
  }
}
