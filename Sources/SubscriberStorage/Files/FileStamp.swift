#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What "this file changed" means to every reader that keeps something derived from it (the
/// list and its index, a watcher's stat polling, a deliverer following it, the API's transaction
/// locator). An atomic writer's rename always makes a new inode, so even a same-size write in the
/// same nanosecond is seen; ctime catches a rewrite in place that puts size and mtime back; the
/// device tells a file from its namesake on another mount.
public struct FileStamp: Equatable, Sendable {
  public var size: Int64
  public var mtimeNs: Int64
  public var ctimeNs: Int64
  public var inode: Int64
  public var device: Int64

  public init(size: Int64, mtimeNs: Int64, ctimeNs: Int64, inode: Int64, device: Int64) {
    self.size = size
    self.mtimeNs = mtimeNs
    self.ctimeNs = ctimeNs
    self.inode = inode
    self.device = device
  }

  /// nil when the file is gone or cannot be stat'ed.
  public init?(path: String) {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    size = Int64(st.st_size)
    #if canImport(Darwin)
    mtimeNs = Int64(st.st_mtimespec.tv_sec) &* 1_000_000_000 &+ Int64(st.st_mtimespec.tv_nsec)
    ctimeNs = Int64(st.st_ctimespec.tv_sec) &* 1_000_000_000 &+ Int64(st.st_ctimespec.tv_nsec)
    #else
    mtimeNs = Int64(st.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(st.st_mtim.tv_nsec)
    ctimeNs = Int64(st.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(st.st_ctim.tv_nsec)
    #endif
    inode = Int64(bitPattern: UInt64(st.st_ino))
    device = Int64(bitPattern: UInt64(st.st_dev))
  }
}
