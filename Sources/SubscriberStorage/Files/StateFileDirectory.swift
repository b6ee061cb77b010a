#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import DashModel

/// A directory of state files as its readers see it: which names are subscribers' files, and what
/// changed since a reader last derived something from them. The list, its SQLite index and the
/// API's transaction locator all ask here, so "a state file" and "changed" mean one thing.
public enum StateFileDirectory {
  /// `*.json`, not hidden: SubDash's own files beside the state files (locks, journals, the
  /// index, the retention configuration) are hidden or not JSON.
  public static func isStateFileName(_ name: some StringProtocol) -> Bool { isStateFileName(bytes: name.utf8) }

  /// The same for a name as bytes (an inotify event's).
  public static func isStateFileName(bytes name: some Collection<UInt8>) -> Bool {
    name.first != UInt8(ascii: ".") && name.count > 5 && name.suffix(5).elementsEqual(".json".utf8)
  }

  /// The state files' names in `directory`, sorted (answers never depend on the directory's order).
  public static func names(in directory: String) throws(StateFileError) -> [String] {
    guard let d = opendir(directory) else {
      throw StateFileError(file: directory, message: "cannot read the directory: \(Posix.errorText())")
    }
    defer { closedir(d) }
    var names: [String] = []
    while let entry = readdir(d) {
      let name = DirectoryEntry.name(entry)
      if isStateFileName(name) { names.append(name) }
    }
    return names.sorted()
  }

  public static func path(_ name: String, in directory: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }

  /// Files to read again, with the stamp taken before reading (a write in between makes the next
  /// look read it again), and names that are gone.
  public struct Changes: Sendable {
    public var changed: [(name: String, stamp: FileStamp)] = []
    public var removed: [String] = []
  }

  /// What changed since a reader stamped the files it knows (`known`): a file whose stamp differs,
  /// a new file, a file that is gone, and a file the reader says is `due` (time is an input too).
  /// `reported` is what a watcher named; nil means "compare every file in the directory".
  public static func changes(
    in directory: String, reported: Set<String>?, known: (String) -> FileStamp?, knownNames: @autoclosure () -> [String],
    due: (String) -> Bool = { _ in false }
  ) throws(StateFileError) -> Changes {
    var out = Changes()
    let candidates: [String]
    if let reported {
      candidates = reported.sorted()
    } else {
      candidates = try names(in: directory)
      let present = Set(candidates)
      out.removed = knownNames().filter { !present.contains($0) }.sorted()
    }
    for name in candidates {
      guard let stamp = FileStamp(path: path(name, in: directory)) else {
        if known(name) != nil { out.removed.append(name) }
        continue
      }
      if known(name) != stamp || due(name) { out.changed.append((name, stamp)) }
    }
    return out
  }
}
