import CoreValues
extension Simulator {
  /// Sets keys of the `simulation` object to the given JSON values, then checks the whole object.
  /// Unlike `configure`, it does not need the current settings to read first, so a command-line
  /// flag can repair the very setting that makes the file unreadable (a hand-written
  /// `"gracePeriod": 61` is fixed by `simulate --grace 16d`). Refused, with the JSON path, when
  /// the result still does not read; nothing is changed then.
  public static func setSettings(_ state: SubscriptionState, _ values: [(key: String, value: JSON)]) -> Result<Change, ActionError> {
    var s = state
    var sim = s.document.simulation ?? JSONObject()
    for (key, value) in values { sim[key] = value }
    s.document.simulation = sim
    do {
      let settings = try SimulationSettings(of: s)
      _ = try SimulationRules(settings: settings, catalog: s.catalog)
    } catch {
      return .failure(.badSetting(path: "\(error.path)", message: error.message))
    }
    return .success(Change(state: s, message: "Simulation settings changed"))
  }
}
