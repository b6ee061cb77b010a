import FoundationEssentials
import Glibc

/// The demo subscriber `subdash` opens without arguments: a writable copy in a fresh temporary
/// directory, so keys and the simulator can change it while the repository's examples stay as
/// they are.
enum DemoFile {
  static func makeTemporaryCopy() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-demo-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let file = dir.appendingPathComponent("demo.json")
    try Data((DemoState.json + "\n").utf8).write(to: file)
    return file.path
  }
}
