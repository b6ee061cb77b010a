import DashModel
import DashRuntime

/// What `subdash --version` prints: the release, and how this binary was built, so support can
/// tell a debug build from a release one, and a static-runtime copy from one that needs Swift.
enum SubDashVersion {
  static let release = "0.9.0"

  static var text: String { "subdash \(release) (\(build))" }

  /// `subdash --version` in full: the line above, then each helper executable and the file this
  /// `subdash` would run for it (or where it looked), so a partial install shows at a glance.
  static func report(executable: String? = ExecutablePath.current()) -> String {
    let width = ExecutablePath.helpers.map(\.count).max() ?? 0
    let lines = ExecutablePath.helpers.map { name in
      let padded = name + String(repeating: " ", count: width - name.count)
      switch ExecutablePath.locate(name, executable: executable) {
      case .success(let path): return "  \(padded)  \(path)"
      case .failure(let missing): return "  \(padded)  missing (\(missing.places))"
      }
    }
    let missing = ExecutablePath.helpers.contains { if case .failure = ExecutablePath.locate($0, executable: executable) { true } else { false } }
    let advice = missing ? ["install them with \(ExecutablePath.installCommand)"] : []
    return ([text, "helpers:"] + lines + advice).joined(separator: "\n")
  }

  static var build: String {
    #if DEBUG
    let kind = "debug build"
    #else
    let kind = "release build"
    #endif
    #if os(Linux)
    let platform = "Linux"
    #elseif os(macOS)
    let platform = "macOS"
    #else
    let platform = "unknown platform"
    #endif
    #if arch(x86_64)
    let arch = "x86_64"
    #elseif arch(arm64)
    let arch = "arm64"
    #else
    let arch = "other architecture"
    #endif
    return "\(kind), \(platform) \(arch), Swift \(swiftVersion), state format \(DashModelInfo.stateFormat)"
  }

  static var swiftVersion: String {
    #if compiler(>=6.3)
    return "6.3"
    #elseif compiler(>=6.2)
    return "6.2"
    #else
    return "6"
    #endif
  }
}
