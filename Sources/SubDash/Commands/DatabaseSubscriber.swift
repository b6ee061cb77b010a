import DashModel
import DashRuntime
import SubscriberStorage

/// Which subscriber of a database mirror a support agent means by `subdash --db URL WHO`: a row's
/// name (`2000000123.json`), that name without `.json` (how `listen` names rows), or the
/// originalTransactionId of a subscriber whose row is named otherwise (read from each file, once).
enum DatabaseSubscriber {
  static func find(_ wanted: String, in directory: String) -> String? {
    guard !wanted.isEmpty, !wanted.contains("/"), !wanted.hasPrefix("."),
          let names = try? ListDirectory.stateFileNames(in: directory) else { return nil }
    let known = Set(names)
    if known.contains(wanted) { return wanted }
    if known.contains(wanted + ".json") { return wanted + ".json" }
    guard wanted.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return names.first { name in
      (try? StateFile.load(path: ListDirectory.filePath(name, in: directory)))?.subscriber.originalTransactionId == wanted
    }
  }
}
