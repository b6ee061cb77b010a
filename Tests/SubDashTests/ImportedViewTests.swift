import DashModel
import DashView
import Foundation
import Testing
@testable import SubDash

/// `subdash FILE` on an App Store input instead of a state file: it opens imported in memory,
/// read-only, and nothing is written, neither the input nor anything beside it.
@Suite struct ImportedViewTests {
  @Test func anXcodeTransactionOpensReadOnlyAndNothingIsWritten() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-importview-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let source = DemoStateTests.repoRoot.appendingPathComponent("Tests/DashModelTests/Fixtures/appstore/xcode_xcode-signed-transaction.jws")
    let path = dir.appendingPathComponent("t.jws").path
    let original = try Data(contentsOf: source)
    try original.write(to: URL(fileURLWithPath: path))

    let stateError: StateFileError
    do { _ = try StateFile.load(path: path); Issue.record("a JWS loaded as a state file"); return } catch { stateError = error }
    let state = try #require(try ImportedView.load(path, stateError: stateError))
    let session = DashboardSession(importedState: state, path: path, displayName: "t.jws", options: DisplayOptions(readOnly: true),
                                   nowOverride: nil, retryAccess: nil)
    let wall = Instant(ms: 1_800_000_000_000)
    #expect(session.model(wall: wall).state.importProvenance?.badge(ascii: false) == "unverified (Xcode)")
    #expect(session.reload(wall: wall) == .fileReloaded(changed: []))
    guard case .failed = session.perform(.setAutoRenew(false), wall: wall) else { Issue.record("a key changed an imported input"); return }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["t.jws"])
  }
}
