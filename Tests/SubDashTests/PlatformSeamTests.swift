import Foundation
import Testing

/// Most app developers work on macOS: every Linux-only call (inotify, signalfd, epoll, /proc)
/// sits in Sources/DashRuntime/Platform, behind a type with a portable fallback (FileWatcher polls
/// by stat), so a macOS port is a matter of those files (docs/reliability.md, "Porting").
@Suite struct PlatformSeamTests {
  static let linuxOnly = ["inotify_", "IN_NONBLOCK", "IN_CLOEXEC", "IN_CLOSE_WRITE", "IN_MOVED_TO", "IN_Q_OVERFLOW",
                          "signalfd(", "signalfd_siginfo", "SFD_", "epoll_", "\"/proc/"]

  @Test func linuxOnlyCallsLiveOnlyInPlatformFiles() throws {
    let root = DemoStateTests.repoRoot.appendingPathComponent("Sources")
    var offenders: [String] = []
    for target in ["DashModel", "DashView", "DashRuntime", "SubDash", "SubDashList"] {
      let dir = root.appendingPathComponent(target)
      let files = FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String } ?? []
      #expect(!files.isEmpty)
      for file in files where file.hasSuffix(".swift") && !(target == "DashRuntime" && file.hasPrefix("Platform/")) {
        let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
        for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
          for call in Self.linuxOnly where line.contains(call) { offenders.append("\(target)/\(file): \(call)") }
        }
      }
    }
    #expect(offenders.isEmpty, "move these behind Sources/DashRuntime/Platform: \(offenders)")
  }
}
