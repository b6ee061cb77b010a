import DashModel
/// Changes to a subscriber that must already exist (a key, a simulation step, an API write):
/// `apply` sees its latest state, and a missing subscriber is `.failed` ("no such state file;
/// nothing was created"), never created.
extension SubscriberStore {
  public func update<Refusal: Error>(
    existing name: String,
    _ apply: @Sendable (SubscriptionState) throws(Refusal) -> SubscriberEdit
  ) async -> UpdateResult<Refusal> {
    let result = await update(name) { (current) throws(Refusal) -> SubscriberEdit in
      guard let current else { return .leave }
      return try apply(current.state)
    }
    return result.requiringExisting(name)
  }
}

extension DirectorySubscriberStore {
  public func update<Refusal: Error>(
    existing name: String, wait: FileLock.Wait,
    _ apply: (SubscriptionState) throws(Refusal) -> SubscriberEdit
  ) -> UpdateResult<Refusal> {
    let result = update(name, wait: wait) { (current) throws(Refusal) -> SubscriberEdit in
      guard let current else { return .leave }
      return try apply(current.state)
    }
    return result.requiringExisting(name)
  }
}

extension UpdateResult {
  /// `.unchanged(nil)` (no such subscriber) as the failure it is for a change of an existing one.
  func requiringExisting(_ name: String) -> UpdateResult {
    guard case .unchanged(nil) = self else { return self }
    return .failed(StateFileError(file: name, message: "no such state file; nothing was created"))
  }
}
