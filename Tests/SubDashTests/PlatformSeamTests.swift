import Foundation
import Testing

/// Most app developers work on macOS: every Linux-only call (inotify, signalfd, epoll, /proc)
/// sits in Sources/DashRuntime/Platform, behind a type with a portable fallback (FileWatcher polls
/// by stat), so a macOS port is a matter of those files (docs/reliability.md, "Porting").
@Suite struct PlatformSeamTests {
  static let linuxOnly = ["inotify_", "IN_NONBLOCK", "IN_CLOEXEC", "IN_CLOSE_WRITE", "IN_MOVED_TO", "IN_Q_OVERFLOW",
                          "signalfd(", "signalfd_siginfo", "SFD_", "epoll_", "\"/proc/"]

  /// Storage optimizations that use a call listed above, each in one file whose Linux code is
  /// under `#if os(Linux)` with the portable path in its `#else` (docs/reliability.md, "Porting"):
  /// a new subscriber's files made unnamed and linked through /proc (`UnnamedFile`).
  static let linuxOptimizations = ["DashModel/Storage/UnnamedFile.swift"]

  @Test func linuxOnlyStorageOptimizationsHaveTheirPortableFallbackInTheSameFile() throws {
    let root = DemoStateTests.repoRoot.appendingPathComponent("Sources")
    for file in Self.linuxOptimizations {
      let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
      #expect(text.contains("#if os(Linux)") && text.contains("#else"), "\(file): Linux-only code without a portable fallback")
    }
  }

  @Test func linuxOnlyCallsLiveOnlyInPlatformFiles() throws {
    let root = DemoStateTests.repoRoot.appendingPathComponent("Sources")
    var offenders: [String] = []
    for target in ["DashModel", "DashView", "DashRuntime", "SubDash", "SubDashList"] {
      let dir = root.appendingPathComponent(target)
      let files = FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String } ?? []
      #expect(!files.isEmpty)
      for file in files where file.hasSuffix(".swift") && !(target == "DashRuntime" && file.hasPrefix("Platform/"))
        && !Self.linuxOptimizations.contains("\(target)/\(file)") {
        let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
        for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
          for call in Self.linuxOnly where line.contains(call) { offenders.append("\(target)/\(file): \(call)") }
        }
      }
    }
    #expect(offenders.isEmpty, "move these behind Sources/DashRuntime/Platform: \(offenders)")
  }
}
