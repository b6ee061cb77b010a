import Dispatch
import CoreValues
import DashModel

/// Reading rows is the model's work, not the screen's: DashView only lays out rows it is given
/// (a test checks its built objects for file and thread calls). Reads go through the directory
/// store, so a row is derived from exactly the file `get` and `update` see.
extension ListRow {
  /// The row for subscriber `name` of `store`, derived at the moment the dashboard would show it:
  /// `nowOverride` (`--now`), else the file's own simulated clock, else `wall`. A file that cannot
  /// be read becomes an error row (listed, never dropped).
  public static func read(_ name: String, in store: DirectorySubscriberStore, nowOverride: Instant?, wall: Instant) -> ListRow {
    read(path: store.path(of: name), file: name, nowOverride: nowOverride, wall: wall)
  }

  /// The same for the state file at `path`; `file` is the row's name.
  public static func read(path: String, file: String, nowOverride: Instant?, wall: Instant) -> ListRow {
    do {
      let state = try StateFile.load(path: path).forViewing()
      let simulated = nowOverride == nil ? (try? Simulator.settings(state))?.now : nil
      var row = derive(file: file, state: state, at: nowOverride ?? simulated ?? wall)
      row.simulatedNow = simulated
      // The newest event of a journalled file is in its journal, not the inline log (the
      // simulator and `listen` append there): the dashboard's newest event, read the same way.
      if state.document.journal != nil, let last = try? StateFile.recentNotifications(state, statePath: path, limit: 1).first {
        row.setLastEvent(last)
      }
      return row
    } catch {
      return .unreadable(file: file, error: error.description)
    }
  }

  /// `read` for many subscribers of `store` at once, keeping their order.
  public static func readAll(_ names: [String], in store: DirectorySubscriberStore, nowOverride: Instant?, wall: Instant, workers: Int) -> [ListRow] {
    readAll(names.map { (store.path(of: $0), $0) }, nowOverride: nowOverride, wall: wall, workers: workers)
  }

  /// `read` for many files at once, on every core (the first open of a large directory is all
  /// JSON parsing), keeping the order of `files`.
  public static func readAll(_ files: [(path: String, file: String)], nowOverride: Instant?, wall: Instant, workers: Int) -> [ListRow] {
    guard files.count > 1, workers > 1 else { return files.map { read(path: $0.path, file: $0.file, nowOverride: nowOverride, wall: wall) } }
    let workers = min(workers, files.count)
    let results = UnsafeMutableBufferPointer<ListRow?>.allocate(capacity: files.count)
    results.initialize(repeating: nil)
    defer { results.deinitialize(); results.deallocate() }
    let slots = Slots(buffer: results)
    DispatchQueue.concurrentPerform(iterations: workers) { w in
      var i = w
      while i < files.count {  // each worker writes only its own slots
        slots.buffer[i] = read(path: files[i].path, file: files[i].file, nowOverride: nowOverride, wall: wall)
        i += workers
      }
    }
    return results.map { $0! }
  }
}

private struct Slots: @unchecked Sendable { let buffer: UnsafeMutableBufferPointer<ListRow?> }
