import DashModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues

/// Whether this user may change a state file: a save writes a new file in the file's directory
/// (beside its lock file) and renames it over the file, so both the file and its directory must
/// be writable. Asked once when a dashboard opens, so a file nobody here may change opens
/// read-only and says why, instead of offering keys that each fail at the write.
package enum WriteAccess {
  /// "cannot write PATH (permission)", or nil when the file and its directory may be written.
  /// `access` answers for the real user, as a save is made; root passes permission bits (not a
  /// read-only file system or an immutable file), exactly as its save would.
  package static func refusal(forStateFile path: String) -> String? {
    if access(path, W_OK) != 0 { return "cannot write \(path) (\(reason(errno)))" }
    let directory = PathName.directory(of: path)
    if access(directory, W_OK | X_OK) != 0 {
      return "cannot write \(path): its directory \(directory) is not writable (\(reason(errno)))"
    }
    return nil
  }

  private static func reason(_ code: Int32) -> String {
    switch code {
    case EACCES, EPERM: return "permission"
    case EROFS: return "read-only file system"
    default: return String(cString: strerror(code))
    }
  }
}
