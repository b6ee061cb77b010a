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
    // Plain loops: key paths and generic closures here cost as much as the rest of the process
    // (the runtime instantiates their metadata by name on first use), and each helper is looked
    // for once. `--version` is a whole-process figure (docs/benchmarks.md).
    var width = 0
    for name in ExecutablePath.helpers where name.utf8.count > width { width = name.utf8.count }
    var out = text + "\nhelpers:"
    var missing = false
    for name in ExecutablePath.helpers {
      out += "\n  " + name + String(repeating: " ", count: width - name.utf8.count) + "  "
      switch ExecutablePath.locate(name, executable: executable) {
      case .success(let path): out += path
      case .failure(let absent):
        out += "missing (" + absent.places + ")"
        missing = true
      }
    }
    if missing { out += "\ninstall them with " + ExecutablePath.installCommand }
    return out
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
