import DashModel
import Foundation
import SubscriberStorage
import RetentionMessaging

/// The Retention Messaging configuration a directory holds beside its state files
/// (`.retention-messaging.json`, what `serve DIR` keeps), moved with the subscribers: `db import`
/// stores it as the document `serve --db` reads, `db export` writes that document back. Without it
/// a team moving a `serve` directory into the database would lose its messages, default messages
/// and realtime URL, and an export would come back without them.
extension DirectoryFiles {
  /// The configuration in `dir`, checked as a dashboard reads it (private, the user's own, whole,
  /// a configuration `RetentionSetup` parses); nil when the directory has none.
  public static func retentionConfiguration(in dir: String) throws(DatabaseError) -> [UInt8]? {
    let path = dir + "/" + RetentionSetup.fileName
    let bytes: [UInt8]?
    do { bytes = try PrivateFile.readIfPresent(path, what: "the Retention Messaging configuration") } catch {
      throw .file("\(error.description) (nothing was stored)")
    }
    guard let bytes else { return nil }
    do { _ = try RetentionSetup.parse(bytes, path: path) } catch { throw .file("\(error.description) (nothing was stored)") }
    return bytes
  }

  /// Writes the configuration into `dir` as the dashboard and `serve DIR` read it: exactly these
  /// bytes, private (0600, whatever mode a file there had), atomically.
  public static func writeRetentionConfiguration(_ bytes: [UInt8], to dir: String) throws(DatabaseError) {
    do { try AtomicWriter.write(bytes, to: dir + "/" + RetentionSetup.fileName, alwaysPrivate: true) } catch {
      throw .file(dir + "/" + error.description)
    }
  }
}
