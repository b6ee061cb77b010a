import DashModel
import DashRuntime
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues
import SubscriberStorage

/// The demo subscriber `subdash` opens without arguments: a writable copy in a fresh temporary
/// directory, so keys and the simulator can change it while the repository's examples stay as
/// they are. The copy lives as long as the dashboard (its path is in the header, for a
/// `subdash simulate` in another terminal); quitting removes it, so runs leave nothing behind.
enum DemoFile {
  static func makeTemporaryCopy() throws -> String {
    // Private and unguessable (mkdtemp, 0700), as every directory SubDash writes into.
    let dir = try PrivateDirectory.makeTemporary("subdash-demo")
    let store = DirectorySubscriberStore(directory: dir)
    guard case .object(let document)? = try? JSONParser.parse(Array(DemoState.json.utf8)) else {
      throw StateFileError(file: "demo.json", message: "the embedded demo subscriber did not parse")
    }
    // Made as every new subscriber is: under its lock, written atomically, 0600.
    switch store.update("demo.json", wait: .bounded, { (_) throws(Never) -> SubscriberEdit in
      .create(NewSubscriber(document: document, message: "demo subscriber"))
    }) {
    case .created: return store.path(of: "demo.json")
    case .applied, .unchanged: throw StateFileError(file: "demo.json", message: "exists already in a new directory")
    case .busy(let e), .failed(let e): throw e
    }
  }

  /// Removes the directory `makeTemporaryCopy` made for `path` (the copy, its journal and lock).
  static func remove(_ path: String) {
    let dir = PathName.directory(of: path)
    guard PathName.fileName(of: dir).hasPrefix("subdash-demo-") else { return }
    PrivateDirectory.remove(dir)
  }
}
