import DashModel
import SubscriberStorage

/// The API's one way to change a subscriber: through the subscriber store, on the latest stored
/// state under its lock, waiting (holding no thread) at most `FileLock.maxWait` for another writer.
extension LocalAppStoreAPI {
  /// `apply` computes the change from the subscriber as stored now. A refusal writes nothing and
  /// comes back as `.refused`; a subscriber held past the bound as `.busy`.
  func change<Refusal: Error>(_ s: SubscriberRecord, _ apply: @escaping @Sendable (SubscriptionState) throws(Refusal) -> Change) async -> UpdateResult<Refusal> {
    let (directoryStore, name) = DirectorySubscriberStore.holding(s.path)
    let store: any SubscriberStore = self.store ?? directoryStore
    return await store.update(existing: name) { (current) throws(Refusal) -> SubscriberEdit in .save(try apply(current)) }
  }
}
