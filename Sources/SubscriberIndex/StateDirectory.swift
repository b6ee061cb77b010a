import DashModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
