import Foundation

/// The shipped examples these tests read: the state files and the catalog they name, copied one
/// by one. Never the whole folder: whatever else sits in Examples/ (an index `subdash list
/// Examples` left there, a user's scratch file) would become rows these tests did not expect.
enum ExampleFiles {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Examples")

  /// A new private directory holding a copy of every example state file and catalog.
  static func copied(into prefix: String) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { !$0.hasPrefix(".") && ($0.hasSuffix(".json") || $0.hasSuffix(".storekit")) }
    for name in names {
      try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: dir.appendingPathComponent(name))
    }
    return dir
  }
}
