import Foundation
import Testing
@testable import DashRuntime
@testable import SubDash

/// `subdash` with no arguments opens the embedded demo; it must be Examples/active.json exactly,
/// so what the README and the examples describe is what a new user sees.
@Suite struct DemoStateTests {
  static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  @Test func embeddedDemoMatchesTheActiveExample() throws {
    let example = try String(contentsOf: Self.repoRoot.appendingPathComponent("Examples/active.json"), encoding: .utf8)
    #expect(DemoState.json + "\n" == example, "run scripts/embed-demo.py after changing Examples/active.json")
  }

  @Test func demoCopyIsWritableAndSeparateFromTheRepository() throws {
    let path = try DemoFile.makeTemporaryCopy()
    defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
    #expect(!path.hasPrefix(Self.repoRoot.path))
    #expect(FileManager.default.isWritableFile(atPath: path))
  }
}
