import Foundation

/// Puts an executable a test will run on disk without this process ever holding it open for
/// writing. Tests run in parallel and several of them start children: a child forked while our
/// write descriptor is open keeps it until its exec, and running the file in that window fails
/// with "Text file busy" (ETXTBSY; a red CI run on stop 26). `/bin/cp`, a child of its own, does
/// the writing, so no descriptor of ours exists to leak.
enum ExecutableFixture {
  /// A shell script with `text` at `path`, mode 0755.
  static func script(_ text: String, at path: String) throws {
    let source = path + ".source"
    try text.write(toFile: source, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: source) }
    try copy(from: source, to: path)
  }

  /// A copy of the executable at `source` at `path`, mode 0755.
  static func copy(from source: String, to path: String) throws {
    let cp = Process()
    cp.executableURL = URL(fileURLWithPath: "/bin/cp")
    cp.arguments = [source, path]
    try cp.run()
    cp.waitUntilExit()
    guard cp.terminationStatus == 0, chmod(path, 0o755) == 0 else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
    }
  }
}
