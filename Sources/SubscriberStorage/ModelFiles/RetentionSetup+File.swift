import DashModel
import CoreValues
import RetentionMessaging

/// The Retention Messaging configuration as a file beside the state files it serves.
extension RetentionSetup {
  /// The configuration beside `statePath`; empty when there is none. The file must be private and
  /// the user's own (it names the server the App Store will call), and must read whole: one that
  /// does not is an error naming it, never a silent "nothing configured".
  public static func load(besideStateFile statePath: String) throws(RetentionSetupError) -> RetentionSetup {
    let path = path(besideStateFile: statePath)
    let bytes: [UInt8]?
    do { bytes = try PrivateFile.readIfPresent(path, what: "the Retention Messaging configuration") } catch {
      throw RetentionSetupError(description: error.description)
    }
    guard let bytes else { return RetentionSetup() }
    return try parse(bytes, path: path)
  }

  /// Replaces the configuration beside `statePath` (atomic, private), as `serve` would after the
  /// developer's calls: what a scenario's `retention` lines do.
  public func save(besideStateFile statePath: String) throws(RetentionSetupError) {
    do { try AtomicWriter.write(JSONWriter.write(json), to: Self.path(besideStateFile: statePath), alwaysPrivate: true) } catch {
      throw RetentionSetupError(description: error.description)
    }
  }
}
