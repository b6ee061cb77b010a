import DashModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the running executable is, for starting a sibling binary (`subdash-fetch` beside
/// `subdash`). Linux reads /proc/self/exe; a macOS port uses `_NSGetExecutablePath` here.
package enum ExecutablePath {
  /// `name` in the running executable's directory, or `name` alone (found through PATH) when the
  /// executable's path cannot be read.
  package static func sibling(_ name: String) -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return name }
    let path = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return PathName.directory(of: path) + "/" + name
  }

  /// True when `name` is installed beside the running executable (a partial install may lack it).
  package static func hasSibling(_ name: String) -> Bool { access(sibling(name), X_OK) == 0 }
}
