import DashModel

/// What `subdash --version` prints: the release, and how this binary was built, so support can
/// tell a debug build from a release one, and a static-runtime copy from one that needs Swift.
enum SubDashVersion {
  static let release = "0.9.0"

  static var text: String { "subdash \(release) (\(build))" }

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
