import DashModel
import SubscriberStorage
/// Reads a scenario script the way state files are read (a regular file, bounded, non-blocking),
/// so a missing or unreadable script is one line naming it ("x.scenario: cannot read the script:
/// No such file or directory"), not a Foundation error dump.
public enum ScenarioFile {
  /// Scripts are a few hundred lines; anything near a state file's size is not a script.
  static let maxBytes = StateFile.maxDocumentBytes

  public static func read(path: String) throws(StateFileError) -> String {
    switch Posix.readAll(path: path, limit: maxBytes) {
    case .failure(let f): throw StateFileError(file: path, message: "cannot read the script: \(f.description)")
    case .success(let bytes):
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw StateFileError(file: path, message: "cannot read the script: it is not UTF-8 text")
      }
      return text
    }
  }
}
