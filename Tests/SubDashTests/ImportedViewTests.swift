import DashModel
import DashView
import Foundation
import Testing
@testable import DashRuntime
@testable import SubDash
import CoreValues
import SubscriberStorage

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
    let imported = try #require(try ImportedView.load(path, stateError: stateError))
    let session = DashboardSession(importedState: imported.state, path: path, displayName: "t.jws", options: DisplayOptions(readOnly: true),
                                   nowOverride: nil, retryAccess: nil)
    let wall = Instant(ms: 1_800_000_000_000)
    #expect(session.model(wall: wall).state.importProvenance?.badge(ascii: false) == "unverified (Xcode)")
    #expect(session.reload(wall: wall) == .fileReloaded(changed: []))
    guard case .failed = session.perform(.setAutoRenew(false), wall: wall) else { Issue.record("a key changed an imported input"); return }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["t.jws"])
  }

  /// Apple's sample notification holds placeholders where the signed transaction and renewal info
  /// belong. Opening it says so on the status line (and in the message log under `?`), as
  /// `subdash import` does on stderr: nothing the import skipped goes unsaid.
  @Test func placeholdersSkippedOnOpenAreNamedOnTheStatusLine() throws {
    let path = DemoStateTests.repoRoot.appendingPathComponent("Tests/DashModelTests/Fixtures/appstore/signedNotification.json").path
    let stateError: StateFileError
    do { _ = try StateFile.load(path: path); Issue.record("a notification body loaded as a state file"); return } catch { stateError = error }
    let imported = try #require(try ImportedView.load(path, stateError: stateError))
    #expect(imported.warnings.count == 2)
    #expect(imported.warnings.allSatisfy { $0.contains("is not a JWS (a placeholder?); skipped") })

    let session = DashboardSession(importedState: imported.state, warnings: imported.warnings, path: path, displayName: "n.json",
                                   options: DisplayOptions(readOnly: true), nowOverride: nil, retryAccess: nil)
    let screen = FakeScreen(keys: "q")
    _ = DashboardApp(session: session, colorWanted: false)
      .loop(on: screen, signals: nil, follower: nil, ttyFD: screen.pipe.readFD, clock: { Instant(ms: 1_800_000_000_000) })
    // The status line wraps onto spare rows: read it as one sentence.
    let first = try #require(screen.frames.first).textDump.replacingOccurrences(of: "\n  ", with: " ")
    #expect(first.contains("import warning: $.data.signedTransactionInfo: \"signed_transaction_info_value\" is not a JWS"))
  }
}
