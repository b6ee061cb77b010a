/// Where a scenario's state lives between steps: a state file, written only through
/// `StateFile.update` (locked, re-read, journaled, atomic), exactly like the dashboard's writes.
public struct ScenarioStore: Sendable {
  public var path: String

  public init(path: String) { self.path = path }

  public func load() throws(StateFileError) -> SubscriptionState { try StateFile.load(path: path) }

  /// Computes a change from the state on disk and saves it; a refused step writes nothing and
  /// returns its error.
  public func update(_ compute: (SubscriptionState) -> Result<Change, ActionError>) throws(StateFileError) -> Result<Change, ActionError> {
    var refusal: ActionError?
    do {
      let saved = try StateFile.update(path: path) { (state) throws(StateFileError) -> Change in
        switch compute(state) {
        case .success(let c): return c
        case .failure(let e):
          refusal = e
          throw StateFileError(file: PathName.fileName(of: path), message: e.message)
        }
      }
      return .success(saved.change)
    } catch {
      if let refusal { return .failure(refusal) }
      throw error
    }
  }
}
