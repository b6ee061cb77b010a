import DashModel

extension ListRow {
  /// The row for the state file at `path`, derived at the moment the dashboard would show it:
  /// `nowOverride` (`--now`), else the file's own simulated clock, else `wall`. A file that
  /// cannot be read becomes an error row (listed, never dropped). `file` is the row's name.
  public static func read(path: String, file: String, nowOverride: Instant?, wall: Instant) -> ListRow {
    do {
      let state = try StateFile.load(path: path).forViewing()
      let simulated = nowOverride == nil ? (try? Simulator.settings(state))?.now : nil
      var row = derive(file: file, state: state, at: nowOverride ?? simulated ?? wall)
      row.simulatedNow = simulated
      return row
    } catch {
      return .unreadable(file: file, error: error.description)
    }
  }
}
