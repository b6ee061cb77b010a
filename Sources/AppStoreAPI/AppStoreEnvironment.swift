/// Apple's two server environments. `auto` is a fetch mode, not an environment (see Fetcher).
public enum AppStoreEnvironment: String, Sendable, Equatable, CaseIterable {
  case production
  case sandbox

  public var displayName: String { self == .production ? "Production" : "Sandbox" }

  /// Apple's recommended domains (changed 2026-05-05; the older itunes.apple.com ones still work).
  public var appleBaseURL: String {
    self == .production ? "https://api.storekit.apple.com" : "https://api.storekit-sandbox.apple.com"
  }
}
