import DashRuntime
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberIndex

/// Where a directory's index is kept: beside the files when the directory is the user's own and
/// writable by nobody else (`DirectoryStore.keepsIndexBeside`), else in the user's cache
/// directory under a name made from the directory's real path (a support agent reading a
/// service's files it cannot write; a shared directory such as `/tmp`, where a neighbour could
/// plant the index file). Under `--read-only` never beside the files: nothing appears in a
/// directory opened read-only, even when it could be written (root over SSH on a service's data).
enum IndexLocation {
  static func path(for directory: String, readOnly: Bool = false) -> String? {
    if !readOnly, DirectoryStore.keepsIndexBeside(directory: directory) { return join(directory, DirectoryStore.defaultIndexName) }
    guard let cache = cacheDirectory() else { return nil }
    var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let real = realpath(directory, &resolved).map { _ in String(cString: resolved) } ?? directory
    return join(cache, "index-\(fnv1a(real)).sqlite")
  }

  /// `$XDG_CACHE_HOME/subdash` or `~/.cache/subdash`, created 0700 when missing.
  private static func cacheDirectory() -> String? {
    let base: String
    if let xdg = getenv("XDG_CACHE_HOME"), xdg.pointee != 0 {
      base = String(cString: xdg)
    } else if let home = getenv("HOME"), home.pointee != 0 {
      base = join(String(cString: home), ".cache")
    } else {
      return nil
    }
    mkdir(base, 0o700)
    let dir = join(base, "subdash")
    mkdir(dir, 0o700)
    return access(dir, W_OK) == 0 ? dir : nil
  }

  private static func join(_ dir: String, _ name: String) -> String { ListDirectory.filePath(name, in: dir) }

  /// A stable 64-bit hash (FNV-1a) of the path, in hex: the same directory finds the same index.
  static func fnv1a(_ text: String) -> String {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in text.utf8 {
      h ^= UInt64(b)
      h &*= 0x100_0000_01b3
    }
    let hex = String(h, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}
