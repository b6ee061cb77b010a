import DashModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberStorage

/// A private directory for a child's files (a database mirror, a population run against a
/// database): created 0700 under $TMPDIR (or /tmp) with a unique name, removed with its files.
package enum TemporaryDirectory {
  /// `$TMPDIR/<prefix>-XXXXXX`, or nil (errno says why).
  package static func make(_ prefix: String) -> String? {
    let tmp = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array((tmp + "/" + prefix + "-XXXXXX").utf8CString)
    return mkdtemp(&template).map { String(cString: $0) }
  }

  /// Removes the directory and the files in it, one level deep: state files, journals, locks,
  /// catalogs and temporaries are all the children ever write there.
  package static func remove(_ dir: String) {
    if let d = opendir(dir) {
      while let entry = readdir(d) {
        let name = DirectoryEntry.name(entry)
        if name != "." && name != ".." { unlink(dir + "/" + name) }
      }
      closedir(d)
    }
    rmdir(dir)
  }
}
