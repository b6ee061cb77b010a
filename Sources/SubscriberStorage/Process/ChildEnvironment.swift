#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DashModel

/// Our environment with some variables replaced: how a secret (the database URL) reaches a
/// child (`posix_spawn`, `execve`) without appearing in its arguments.
package enum ChildEnvironment {
  /// `NAME=value` entries: ours, minus the names in `overriding`, plus those.
  package static func entries(overriding: [String: String]) -> [String] {
    var entries: [String] = []
    var p = environ
    while let entry = p.pointee {
      let text = String(cString: entry)
      let name = text.prefix(while: { $0 != "=" })
      if overriding[String(name)] == nil { entries.append(text) }
      p += 1
    }
    for (name, value) in overriding.sorted(by: { $0.key < $1.key }) { entries.append("\(name)=\(value)") }
    return entries
  }
}
