#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What "this file changed" means to a reader that keeps something derived from it (the list's
/// index, a deliverer following it, the API's transaction locator): size, mtime (ns) and inode.
/// An atomic writer's rename always makes a new inode, so even a same-size write in the same
/// nanosecond is seen.
public struct FileStamp: Equatable, Sendable {
  public var size: Int64
  public var mtimeNs: Int64
  public var inode: Int64

  public init(size: Int64, mtimeNs: Int64, inode: Int64) {
    self.size = size
    self.mtimeNs = mtimeNs
    self.inode = inode
  }

  /// nil when the file is gone or cannot be stat'ed.
  public init?(path: String) {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    size = Int64(st.st_size)
    mtimeNs = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
    inode = Int64(bitPattern: UInt64(st.st_ino))
  }
}
