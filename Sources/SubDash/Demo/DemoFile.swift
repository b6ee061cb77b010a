import DashModel
import DashRuntime
import FoundationEssentials
import Glibc

/// The demo subscriber `subdash` opens without arguments: a writable copy in a fresh temporary
/// directory, so keys and the simulator can change it while the repository's examples stay as
/// they are. The copy lives as long as the dashboard (its path is in the header, for a
/// `subdash simulate` in another terminal); quitting removes it, so runs leave nothing behind.
enum DemoFile {
  static func makeTemporaryCopy() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-demo-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let file = dir.appendingPathComponent("demo.json")
    try Data((DemoState.json + "\n").utf8).write(to: file)
    return file.path
  }

  /// Removes the directory `makeTemporaryCopy` made for `path` (the copy, its journal and lock).
  static func remove(_ path: String) {
    let dir = PathName.directory(of: path)
    guard PathName.fileName(of: dir).hasPrefix("subdash-demo-") else { return }
    try? FileManager.default.removeItem(atPath: dir)
  }
}
