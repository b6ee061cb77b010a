import DashModel
import DashView
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A directory of state files read as list rows. The files are the truth: every row is derived
/// from a file's contents at a moment (`--now`, else the file's simulated clock, else the wall
/// clock), and a file that cannot be read is listed with its error, never dropped.
package final class ListDirectory {
  package let path: String
  package let nowOverride: Instant?
  /// size/mtime/inode per file name at the time its row was read: what "changed" means.
  package private(set) var identities: [String: FileIdentity] = [:]

  package init(path: String, nowOverride: Instant?) {
    self.path = path
    self.nowOverride = nowOverride
  }

  /// True when `path` is a directory (following symlinks): `subdash DIR` then opens the list.
  package static func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
  }

  /// The state files' names (`*.json`, not hidden), sorted; throws when the directory cannot be read.
  package static func stateFileNames(in dir: String) throws(StateFileError) -> [String] {
    guard let d = opendir(dir) else {
      throw StateFileError(file: dir, message: "cannot read the directory: \(String(cString: strerror(errno)))")
    }
    defer { closedir(d) }
    var names: [String] = []
    while let entry = readdir(d) {
      let name = DirectoryEntry.name(entry)
      if FileWatcher.isStateFileName(Array(name.utf8)) { names.append(name) }
    }
    return names.sorted()
  }

  package func filePath(_ name: String) -> String { Self.filePath(name, in: path) }

  package static func filePath(_ name: String, in dir: String) -> String { dir.hasSuffix("/") ? dir + name : dir + "/" + name }

  package func row(_ name: String, wall: Instant) -> ListRow { Self.row(name, in: path, nowOverride: nowOverride, wall: wall) }

  /// One file's row at `wall`.
  package static func row(_ name: String, in dir: String, nowOverride: Instant?, wall: Instant) -> ListRow {
    ListRow.read(path: filePath(name, in: dir), file: name, nowOverride: nowOverride, wall: wall)
  }

  /// Every row, read on all cores (the first open of a large directory is file parsing).
  package func loadAll(wall: Instant) throws(StateFileError) -> [ListRow] {
    let names = try Self.stateFileNames(in: path)
    for name in names { identities[name] = FileIdentity(path: filePath(name)) }
    return ListRow.readAll(names.map { (filePath($0), $0) }, nowOverride: nowOverride, wall: wall,
                           workers: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
  }

  /// Rows for files that changed since they were read, and names that are gone. `names` is what
  /// inotify reported; nil means "compare every file by size, mtime and inode".
  package func changes(names: Set<String>?, wall: Instant) -> (upserts: [ListRow], removed: [String]) {
    var candidates: [String]
    var removed: [String] = []
    if let names {
      candidates = names.sorted()
    } else {
      let current = (try? Self.stateFileNames(in: path)) ?? []
      let currentSet = Set(current)
      removed = identities.keys.filter { !currentSet.contains($0) }.sorted()
      candidates = current
    }
    var upserts: [ListRow] = []
    for name in candidates {
      let id = FileIdentity(path: filePath(name))
      if id == nil {
        if identities.removeValue(forKey: name) != nil { removed.append(name) }
        continue
      }
      if identities[name] == id { continue }
      identities[name] = id
      upserts.append(row(name, wall: wall))
    }
    for name in removed { identities[name] = nil }
    return (upserts, removed)
  }
}
