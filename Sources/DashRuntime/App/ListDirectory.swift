import DashModel
import DashView
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues
import SubscriberStorage

/// A directory of state files read as list rows, through the directory store (`ListRow.read`).
/// The files are the truth: every row is derived from a file's contents at a moment (`--now`,
/// else the file's simulated clock, else the wall clock), and a file that cannot be read is
/// listed with its error, never dropped.
package final class ListDirectory {
  package let path: String
  package let store: DirectorySubscriberStore
  package let nowOverride: Instant?
  /// Each file's stamp when its row was read: what "changed" means.
  package private(set) var stamps: [String: FileStamp] = [:]

  package init(path: String, nowOverride: Instant?) {
    self.path = path
    self.store = DirectorySubscriberStore(directory: path)
    self.nowOverride = nowOverride
  }

  /// True when `path` is a directory (following symlinks): `subdash DIR` then opens the list.
  package static func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
  }

  /// The state files' names (`*.json`, not hidden), sorted; throws when the directory cannot be read.
  package static func stateFileNames(in dir: String) throws(StateFileError) -> [String] {
    try StateFileDirectory.names(in: dir)
  }

  package func filePath(_ name: String) -> String { Self.filePath(name, in: path) }

  package static func filePath(_ name: String, in dir: String) -> String { StateFileDirectory.path(name, in: dir) }

  /// One file's row at `wall`.
  package func row(_ name: String, wall: Instant) -> ListRow { ListRow.read(name, in: store, nowOverride: nowOverride, wall: wall) }

  /// Every row, read on all cores (the first open of a large directory is file parsing).
  package func loadAll(wall: Instant) throws(StateFileError) -> [ListRow] {
    let names = try store.list()
    for name in names { stamps[name] = FileStamp(path: filePath(name)) }
    return ListRow.readAll(names, in: store, nowOverride: nowOverride, wall: wall, workers: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
  }

  /// Rows for files that changed since they were read, and names that are gone. `names` is what
  /// inotify reported; nil means "compare every file's stamp". A directory that cannot be read
  /// changes nothing: its rows stay until it can.
  package func changes(names: Set<String>?, wall: Instant) -> (upserts: [ListRow], removed: [String]) {
    let stamps = self.stamps
    guard let found = try? StateFileDirectory.changes(in: path, reported: names, known: { stamps[$0] }, knownNames: Array(stamps.keys)) else {
      return ([], [])
    }
    for (name, stamp) in found.changed { self.stamps[name] = stamp }
    for name in found.removed { self.stamps[name] = nil }
    return (found.changed.map { row($0.name, wall: wall) }, found.removed)
  }
}
