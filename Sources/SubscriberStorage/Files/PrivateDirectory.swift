#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import DashModel

/// Directories SubDash creates hold customer data: they are made 0700, whatever the umask, so
/// another local user can neither list nor read the files inside; an existing directory keeps the
/// mode its owner gave it. Scratch directories are never at a predictable name: another user who
/// made that name first would own the directory every customer is written into.
public enum PrivateDirectory {
  /// Creates `path` and any missing parents, each 0700 (less if the umask says so); what exists
  /// already is left as it is.
  /// Nil when it worked, else why not (one line).
  public static func create(_ path: String) -> String? {
    guard !path.isEmpty else { return "an empty directory name" }
    var prefix = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      prefix += "/" + part
      // 0700 narrowed by the umask: never wider than either.
      if mkdir(prefix, 0o700) == 0 { continue }
      let c = errno
      var st = stat()
      guard c == EEXIST, stat(prefix, &st) == 0 else { return "cannot create \(prefix): \(Posix.errorText(c))" }
      guard st.st_mode & S_IFMT == S_IFDIR else { return "\(prefix) exists and is not a directory" }
    }
    return nil
  }

  /// A new, empty directory only this user can enter: `mkdtemp` under `$TMPDIR` (or /tmp), so the
  /// name cannot be guessed and cannot have been made by someone else first, then checked to be a
  /// real directory, owned by us, mode 0700. Throws the reason it could not be made.
  public static func makeTemporary(_ prefix: String) throws(PrivateDirectoryError) -> String {
    var base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    if base.isEmpty { base = "/tmp" }
    while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
    var template = Array((base + "/" + prefix + "-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
      throw PrivateDirectoryError(description: "cannot create a private scratch directory in \(base): \(Posix.errorText())")
    }
    let path = String(cString: made)
    var st = stat()
    guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR, st.st_uid == geteuid(), st.st_mode & 0o777 == 0o700 else {
      throw PrivateDirectoryError(description: "\(path): the scratch directory is not a private directory of this user (0700); not used")
    }
    return path
  }

  /// Removes a directory and everything in it, never following a symbolic link out of it (a link
  /// inside is removed, not what it points to).
  public static func remove(_ path: String) {
    var st = stat()
    guard lstat(path, &st) == 0 else { return }
    guard st.st_mode & S_IFMT == S_IFDIR else { unlink(path); return }
    if let d = opendir(path) {
      while let e = readdir(d) {
        let name = DirectoryEntry.name(e)
        if name != "." && name != ".." { remove(path + "/" + name) }
      }
      closedir(d)
    }
    rmdir(path)
  }
}

public struct PrivateDirectoryError: Error, CustomStringConvertible, Equatable {
  public let description: String
}
