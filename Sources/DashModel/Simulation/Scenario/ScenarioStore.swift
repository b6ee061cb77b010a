/// Where a scenario's state lives between steps: a state file, written only through
/// `StateFile.update` (locked, re-read, journaled, atomic), exactly like the dashboard's writes.
public struct ScenarioStore: Sendable {
  public var path: String

  public init(path: String) { self.path = path }

  public func load() throws(StateFileError) -> SubscriptionState { try StateFile.load(path: path) }

  /// Computes a change from the state on disk and saves it; a refused step writes nothing and
  /// returns its error.
  public func update(_ compute: (SubscriptionState) -> Result<Change, ActionError>) throws(StateFileError) -> Result<Change, ActionError> {
    do throws(StateFile.UpdateFailure<ActionError>) {
      let saved = try StateFile.update(path: path, refusing: ActionError.self) { (state) throws(ActionError) -> Change in
        try compute(state).get()
      }
      return .success(saved.change)
    } catch {
      switch error {
      case .refused(let refusal): return .failure(refusal)
      case .file(let e): throw e
      }
    }
  }
}
