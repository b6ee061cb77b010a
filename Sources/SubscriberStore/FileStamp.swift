import DashModel
import Glibc

/// What "this file changed" means to the index: size, mtime (ns) and inode. An atomic writer's
/// rename always makes a new inode, so even a same-size write in the same nanosecond is seen.
struct FileStamp: Equatable, Sendable {
  var size: Int64
  var mtimeNs: Int64
  var inode: Int64

  init(size: Int64, mtimeNs: Int64, inode: Int64) {
    self.size = size
    self.mtimeNs = mtimeNs
    self.inode = inode
  }

  /// nil when the file is gone or cannot be stat'ed.
  init?(path: String) {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    size = Int64(st.st_size)
    mtimeNs = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
    inode = Int64(bitPattern: UInt64(st.st_ino))
  }
}

enum StateDirectory {
  /// The state files' names (`*.json`, not hidden) in `dir`.
  static func names(in dir: String) throws(StoreError) -> [String] {
    guard let d = opendir(dir) else { throw StoreError("\(dir): cannot read the directory: \(String(cString: strerror(errno)))") }
    defer { closedir(d) }
    var names: [String] = []
    while let entry = readdir(d) {
      let name = DirectoryEntry.name(entry)
      if !name.hasPrefix("."), name.hasSuffix(".json"), name.utf8.count > 5 { names.append(name) }
    }
    return names.sorted()
  }

  static func path(_ name: String, in dir: String) -> String { dir.hasSuffix("/") ? dir + name : dir + "/" + name }
}

/// One line, naming the index or directory, for the house rule on errors.
public struct StoreError: Error, CustomStringConvertible, Sendable {
  public var description: String
  init(_ d: String) { description = d }
}
