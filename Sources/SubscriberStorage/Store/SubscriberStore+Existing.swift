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

extension UpdateResult {
  /// The one mapping of a typed result to a command's own error: the written change (nil when
  /// nothing was written), or the refusal or the storage failure as `refusal` and `storage` make
  /// them. Commands use it instead of each switching over every case.
  public func written<Failure: Error>(refusal: (Refusal) -> Failure, storage: (StateFileError) -> Failure) throws(Failure) -> Change? {
    switch self {
    case .applied(let change), .created(let change): return change
    case .unchanged: return nil
    case .refused(let r): throw refusal(r)
    case .busy(let e), .failed(let e): throw storage(e)
    }
  }
}

extension SubscriberEdit {
  /// A change to save, or nothing to write when there is none.
  public static func saving(_ change: Change?) -> SubscriberEdit { change.map(SubscriberEdit.save) ?? .leave }
}
