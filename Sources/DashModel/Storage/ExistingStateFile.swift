#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension StateFile {
  /// An update changes a state file that exists: checked before its lock is taken, because taking
  /// the lock creates `<file>.lock`, and `subdash simulate missing.json` left one behind while it
  /// blamed the lock file. New files are made by the importer, under the same lock, on purpose.
  static func requireExisting(_ path: String) throws(StateFileError) {
    let name = PathName.fileName(of: path)
    var st = stat()
    guard lstat(path, &st) == 0 else {
      let code = errno
      if code == ENOENT { throw StateFileError(file: name, message: "no such state file; nothing was created") }
      throw StateFileError(file: name, message: "cannot read: \(Posix.errorText(code))")
    }
    if st.st_mode & S_IFMT == S_IFDIR {
      throw StateFileError(file: name, message: "is a directory, not a state file; nothing was changed")
    }
  }
}
