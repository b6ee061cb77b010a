import Foundation
import Testing

/// Most app developers work on macOS: every Linux-only call sits in a platform folder, behind a
/// type with a portable path beside it: the terminal runtime's (inotify, signalfd, epoll, /proc:
/// Sources/DashRuntime/Platform; FileWatcher polls by stat elsewhere) and storage's (OFD byte
/// locks, O_TMPFILE, renameat2 and leases: Sources/SubscriberStorage/Platform). A port to another
/// system is a matter of those files, which docs/platforms.md names one by one.
@Suite struct PlatformSeamTests {
  static let linuxOnly = ["inotify_", "IN_NONBLOCK", "IN_CLOEXEC", "IN_CLOSE_WRITE", "IN_MOVED_TO", "IN_Q_OVERFLOW",
                          "signalfd(", "signalfd_siginfo", "SFD_", "epoll_", "\"/proc/",
                          "F_OFD_", "setOFDLock", "renameat2", "RENAME_EXCHANGE", "F_SETLEASE", "O_TMPFILE", "0o20000000"]

  /// The platform folders: the only places the calls above may appear.
  static let platformFolders = ["DashRuntime/Platform/", "SubscriberStorage/Platform/"]

  /// Every storage platform file keeps its Linux code under `#if os(Linux)` and is named in
  /// docs/platforms.md, which says what another system needs in its place.
  @Test func storagePlatformFilesAreLinuxGuardedAndDocumented() throws {
    let root = DemoStateTests.repoRoot
    let folder = root.appendingPathComponent("Sources/SubscriberStorage/Platform")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
    #expect(files.count >= 3, "\(files)")
    let platforms = try String(contentsOf: root.appendingPathComponent("docs/platforms.md"), encoding: .utf8)
    for file in files {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      #expect(text.contains("#if os(Linux)"), "\(file): Linux-only code outside #if os(Linux)")
      #expect(platforms.contains(file), "docs/platforms.md does not say what \(file) needs on another system")
    }
  }

  @Test func linuxOnlyCallsLiveOnlyInPlatformFiles() throws {
    let root = DemoStateTests.repoRoot.appendingPathComponent("Sources")
    var offenders: [String] = []
    for target in ["CoreValues", "DashModel", "RetentionMessaging", "SubscriberStorage", "SubscriberImport", "SimulationRuns",
                   "DashView", "DashRuntime", "SubDash", "SubDashList"] {
      let dir = root.appendingPathComponent(target)
      let files = FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String } ?? []
      #expect(!files.isEmpty)
      for file in files where file.hasSuffix(".swift") && !Self.platformFolders.contains(where: "\(target)/\(file)".hasPrefix) {
        let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
        for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
          for call in Self.linuxOnly where line.contains(call) { offenders.append("\(target)/\(file): \(call)") }
        }
      }
    }
    #expect(offenders.isEmpty, "move these behind a platform folder (\(Self.platformFolders)): \(offenders)")
  }
}
