import CoreValues
import DashModel
import SubscriberStorage
/// Creates the state file a scenario starts from: a new subscriber beside a copy of a catalog, or
/// a copy of an existing state file (with its catalog and journal), so a run never touches the
/// originals and the result does not depend on where the copies live.
public enum ScenarioWorkspace {
  /// The state file name a scratch run uses.
  public static let stateFileName = "scenario.json"

  /// Created through the subscriber store: under the new file's lock, with its catalog placed
  /// (never replacing another catalog of that name) and its history journalled before the
  /// document is renamed into place. A state file already at `statePath` is refused, not replaced.
  public static func create(_ setup: ScenarioSetup, scriptDirectory: String, statePath: String) throws(StateFileError) {
    let new = try newSubscriber(setup, scriptDirectory: scriptDirectory, statePath: statePath)
    let (store, name) = DirectorySubscriberStore.holding(statePath)
    switch store.update(name, wait: .bounded, { (current) throws(Never) -> SubscriberEdit in .create(new) }) {
    case .created: return
    case .applied, .unchanged: throw StateFileError(file: name, message: "exists already; a scenario starts from a new file")
    case .busy(let e), .failed(let e): throw e
    }
  }

  /// What the scenario starts from, read and checked before anything is written: a bad catalog or
  /// state file is a bad input, not a half-made run.
  static func newSubscriber(_ setup: ScenarioSetup, scriptDirectory: String, statePath: String) throws(StateFileError) -> NewSubscriber {
    switch setup {
    case .catalog(let relative):
      let source = resolve(relative, in: scriptDirectory)
      let name = PathName.fileName(of: source)
      let bytes = try read(source)
      _ = try StateFile.decode(newDocument(catalogFile: name), fileName: PathName.fileName(of: statePath)) { (_) throws(StateFileError) in
        do {
          return try StoreKitReader.read(ObjectReader(try StateFile.parse(bytes, fileName: name), at: .root))
        } catch let e as StateFileError {
          throw e
        } catch let e as DecodeError {
          throw StateFile.located(e, in: bytes, fileName: name)
        } catch {
          throw StateFileError(file: name, message: "cannot read the catalog")
        }
      }
      return NewSubscriber(document: newDocumentObject(catalogFile: name), catalog: NewCatalog(name: name, bytes: bytes), message: "scenario started from \(name)")
    case .stateFile(let relative):
      let source = resolve(relative, in: scriptDirectory)
      let bytes = try read(source)
      let sourceDir = PathName.directory(of: source)
      let state = try StateFile.decode(bytes, fileName: PathName.fileName(of: source)) { (catalog) throws(StateFileError) in
        try StateFile.loadCatalogFile(catalog, besides: source)
      }
      var catalog: NewCatalog?
      if case .file(let name) = state.document.catalogReference {
        guard !name.contains("/") else {
          throw StateFileError(file: PathName.fileName(of: source), path: JSONPath.root.appending("catalogFile"), message: "a scenario can copy a state file only with its catalog beside it (a plain file name)")
        }
        catalog = NewCatalog(name: name, bytes: try read(sourceDir + "/" + name))
      }
      // The copy's history is the source's committed journal, written afresh beside the copy.
      var document = state.document
      var history: [Journal.Entry] = []
      if let j = document.journal {
        history = try Journal.readAll(path: sourceDir + "/" + j.file, committedBytes: j.committedBytes)
        document.journal = nil
      }
      return NewSubscriber(document: document.json.objectValue ?? JSONObject(), history: history, catalog: catalog,
                           message: "scenario started from a copy of \(PathName.fileName(of: source))")
    }
  }

  static func newDocument(catalogFile: String) -> [UInt8] { JSONWriter.write(.object(newDocumentObject(catalogFile: catalogFile))) }

  static func newDocumentObject(catalogFile: String) -> JSONObject {
    JSONObject([
      ("format", .string(DashModelInfo.stateFormat)),
      ("catalogFile", .string(catalogFile)),
      ("subscriber", .object(JSONObject())),
    ])
  }

  static func resolve(_ path: String, in directory: String) -> String {
    path.hasPrefix("/") ? path : directory + "/" + path
  }

  static func read(_ path: String) throws(StateFileError) -> [UInt8] {
    switch Posix.readAll(path: path, limit: StateFile.maxDocumentBytes) {
    case .success(let b): return b
    case .failure(let why): throw StateFileError(file: PathName.fileName(of: path), message: "cannot read: \(why)")
    }
  }
}
