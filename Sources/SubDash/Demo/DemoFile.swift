import DashModel
import DashRuntime
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The demo subscriber `subdash` opens without arguments: a writable copy in a fresh temporary
/// directory, so keys and the simulator can change it while the repository's examples stay as
/// they are. The copy lives as long as the dashboard (its path is in the header, for a
/// `subdash simulate` in another terminal); quitting removes it, so runs leave nothing behind.
enum DemoFile {
  static func makeTemporaryCopy() throws -> String {
    // Private and unguessable (mkdtemp, 0700), as every directory SubDash writes into.
    let dir = try PrivateDirectory.makeTemporary("subdash-demo")
    let file = dir + "/demo.json"
    try AtomicWriter.write(Array((DemoState.json + "\n").utf8), to: file)
    return file
  }

  /// Removes the directory `makeTemporaryCopy` made for `path` (the copy, its journal and lock).
  static func remove(_ path: String) {
    let dir = PathName.directory(of: path)
    guard PathName.fileName(of: dir).hasPrefix("subdash-demo-") else { return }
    PrivateDirectory.remove(dir)
  }
}
