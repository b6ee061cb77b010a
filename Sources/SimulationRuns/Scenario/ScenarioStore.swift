import CoreValues
import DashModel
import SubscriberStorage
/// Where a scenario's state lives between steps: a state file, written only through the subscriber
/// store (locked, re-read, journaled, atomic), exactly like the dashboard's writes.
public struct ScenarioStore: Sendable {
  public var path: String

  public init(path: String) { self.path = path }

  public func load() throws(StateFileError) -> SubscriptionState { try StateFile.load(path: path) }

  /// Computes a change from the state on disk and saves it; a refused step writes nothing and
  /// returns its error.
  public func update(_ compute: (SubscriptionState) -> Result<Change, ActionError>) throws(StateFileError) -> Result<Change, ActionError> {
    let (store, name) = DirectorySubscriberStore.holding(path)
    switch store.update(existing: name, wait: .bounded, { (state) throws(ActionError) -> SubscriberEdit in .save(try compute(state).get()) }) {
    case .applied(let change), .created(let change): return .success(change)
    case .unchanged(let state?): return .success(Change(state: state, message: "nothing changed"))
    case .unchanged(nil): return .success(Change(state: try load(), message: "nothing changed"))
    case .refused(let refusal): return .failure(refusal)
    case .busy(let e), .failed(let e): throw e
    }
  }

  /// A purchaser's extension moves the linked family members in the same directory too, as
  /// `subdash extend` does (Apple extends them automatically); members without a simulated clock
  /// are decided at `clock`, the scenario's. Nothing for a change that is not an extension.
  public func followFamily(after change: Change, clock: Instant) -> [FamilyExtension.MemberOutcome] {
    let (store, name) = DirectorySubscriberStore.holding(path)
    return FamilyExtension.extendMembers(after: change, in: store, skipping: name, wall: clock)
  }
}
