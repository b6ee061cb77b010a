import DashModel

extension SubscriberDirectory {
  /// The subscriber for an endpoint that takes "any transactionId, originalTransactionId, or
  /// appTransactionId that belongs to the customer" (Apple's words for Get All Subscription
  /// Statuses, Get Transaction History, Get Refund History and Get App Transaction Info): a
  /// transaction id first, then the customer's appTransactionId.
  func subscriber(owningAny id: String, environment: AppStoreEnvironment) throws(APIFailure) -> SubscriberRecord {
    do {
      return try subscriber(owning: id, environment: environment)
    } catch {
      if error == .transactionNotFound, let s = subscriber(appTransactionId: id, environment: environment) { return s }
      throw error
    }
  }
}
