import DashModel
import Foundation
import CoreValues
import SubscriberStorage

/// A directory of state files as rows, and rows as files again. Reading goes through
/// `StateFile.load` first, so a file SubDash could not open is refused (named, one line) rather
/// than stored; writing is atomic per file, the journal before the document that vouches for it.
public enum DirectoryFiles {
  /// The state files in `dir` (`*.json`, not hidden), each read whole with its journal's committed
  /// bytes; `catalogs` gets every `.storekit` file a document names.
  public static func read(_ dir: String) throws(DatabaseError) -> (subscribers: [StoredSubscriber], catalogs: [String: [UInt8]]) {
    let names: [String]
    do { names = try StateFileDirectory.names(in: dir) } catch { throw .usage(error.description) }
    var subscribers: [StoredSubscriber] = []
    var catalogs: [String: [UInt8]] = [:]
    for name in names {
      let path = dir + "/" + name
      // Read the bytes, then prove SubDash can open the file. A writer's atomic rename between the
      // two leaves both versions whole, and the bytes stored are the ones whose journal is followed.
      guard let document = FileManager.default.contents(atPath: path).map(Array.init) else { throw .file("\(path): cannot read") }
      do { _ = try StateFile.load(path: path) } catch { throw .file("\(error.description) (nothing was stored)") }
      guard case .object(let top)? = try? JSONParser.parse(document) else { throw .file("\(path): changed while it was read; run again") }
      var journal: (name: String, bytes: [UInt8])?
      if let info = top["journal"]?.objectValue, let file = info["file"]?.stringValue {
        guard StoredSubscriber.isPlainFileName(file) else { throw .file("\(path): $.journal.file \"\(file)\" is not a plain file name") }
        let committed: Int64 = { if case .number(let n)? = info["committedBytes"] { return Int64(n) ?? 0 } else { return 0 } }()
        let journalPath = dir + "/" + file
        let bytes = FileManager.default.contents(atPath: journalPath).map(Array.init) ?? []
        // The bytes read first may be another version than the one load() checked: a negative count traps prefix().
        guard committed >= 0 else { throw .file("\(path): $.journal.committedBytes \(committed) is negative") }
        guard Int64(bytes.count) >= committed else {
          throw .file("\(journalPath): shorter (\(bytes.count) bytes) than \(name) says it committed (\(committed))")
        }
        journal = (file, Array(bytes.prefix(Int(committed))))
      }
      var catalogName: String?
      if let catalog = top["catalogFile"]?.stringValue {
        guard StoredSubscriber.isPlainFileName(catalog) else {
          throw .file("\(path): $.catalogFile \"\(catalog)\" is not beside the state file; only catalogs in the same directory can be stored")
        }
        guard let bytes = FileManager.default.contents(atPath: dir + "/" + catalog).map(Array.init) else { throw .file("\(dir)/\(catalog): cannot read") }
        if let known = catalogs[catalog], known != bytes { throw .file("\(dir)/\(catalog): changed while the directory was read; run again") }
        catalogs[catalog] = bytes
        catalogName = catalog
      }
      subscribers.append(StoredSubscriber(name: name, document: document, journal: journal, catalogName: catalogName))
    }
    return (subscribers, catalogs)
  }

  /// Writes the subscribers (and the catalogs they name) into `dir`, each file atomically.
  public static func write(_ subscribers: [StoredSubscriber], catalogs: [String: [UInt8]], to dir: String) throws(DatabaseError) {
    if let why = PrivateDirectory.create(dir) { throw .usage("\(dir): cannot create the directory: \(why)") }
    for (name, bytes) in catalogs.sorted(by: { $0.key < $1.key }) {
      try write(bytes, name: name, in: dir)
    }
    for s in subscribers { try write(s, to: dir) }
  }

  /// One subscriber: the journal first, so the document never vouches for bytes not yet on disk.
  public static func write(_ s: StoredSubscriber, to dir: String) throws(DatabaseError) {
    if let journal = s.journal { try write(journal.bytes, name: journal.name, in: dir) }
    try write(s.document, name: s.name, in: dir)
  }

  static func write(_ bytes: [UInt8], name: String, in dir: String) throws(DatabaseError) {
    guard StoredSubscriber.isPlainFileName(name) else { throw .file("a row names the file \"\(name)\", which is not a plain file name; nothing written for it") }
    // The error names the file; the directory too, so an export's failure says where.
    do { try AtomicWriter.write(bytes, to: dir + "/" + name) } catch { throw .file(dir + "/" + error.description) }
  }

  /// An empty private directory at `dir` (created, or emptied of a previous use).
  public static func reset(_ dir: String) throws(DatabaseError) {
    remove(dir)
    if let why = PrivateDirectory.create(dir) { throw .file("\(dir): cannot create a working directory: \(why)") }
  }

  public static func remove(_ dir: String) { PrivateDirectory.remove(dir) }
}
