/// Creates the state file a scenario starts from: a new subscriber beside a copy of a catalog, or
/// a copy of an existing state file (with its catalog and journal), so a run never touches the
/// originals and the result does not depend on where the copies live.
public enum ScenarioWorkspace {
  /// The state file name a scratch run uses.
  public static let stateFileName = "scenario.json"

  public static func create(_ setup: ScenarioSetup, scriptDirectory: String, statePath: String) throws(StateFileError) {
    let dir = PathName.directory(of: statePath)
    switch setup {
    case .catalog(let relative):
      let source = resolve(relative, in: scriptDirectory)
      let name = PathName.fileName(of: source)
      let bytes = try read(source)
      // Validate before writing anything: a bad catalog is a bad input, not a half-made run.
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
      try placeCatalog(bytes, at: dir + "/" + name)
      try AtomicWriter.write(newDocument(catalogFile: name), to: statePath)
    case .stateFile(let relative):
      let source = resolve(relative, in: scriptDirectory)
      let bytes = try read(source)
      let sourceDir = PathName.directory(of: source)
      let state = try StateFile.decode(bytes, fileName: PathName.fileName(of: source)) { (catalog) throws(StateFileError) in
        try StateFile.loadCatalogFile(catalog, besides: source)
      }
      if case .file(let catalog) = state.document.catalogReference {
        guard !catalog.contains("/") else {
          throw StateFileError(file: PathName.fileName(of: source), path: JSONPath.root.appending("catalogFile"), message: "a scenario can copy a state file only with its catalog beside it (a plain file name)")
        }
        try placeCatalog(try read(sourceDir + "/" + catalog), at: dir + "/" + catalog)
      }
      var document = state.document
      if let j = document.journal {
        var journalBytes = try read(sourceDir + "/" + j.file)
        journalBytes = Array(journalBytes.prefix(Int(j.committedBytes)))
        let name = Journal.defaultName(for: PathName.fileName(of: statePath))
        try AtomicWriter.write(journalBytes, to: dir + "/" + name)
        var copy = j
        copy.file = name
        document.journal = copy
      }
      try AtomicWriter.write(JSONWriter.write(document.json), to: statePath)
    }
  }

  /// The catalog beside the new state file. A file of that name already there is kept: left as it
  /// is when it holds the same bytes, refused (nothing written) when it differs, so a run never
  /// replaces someone's catalog.
  static func placeCatalog(_ bytes: [UInt8], at path: String) throws(StateFileError) {
    if case .success(let existing) = Posix.readAll(path: path, limit: StateFile.maxDocumentBytes) {
      guard existing == bytes else {
        throw StateFileError(file: path, message: "exists and differs from the scenario's catalog; not replaced (write the state file in another directory)")
      }
      return
    }
    try AtomicWriter.write(bytes, to: path)
  }

  static func newDocument(catalogFile: String) -> [UInt8] {
    let doc = JSONObject([
      ("format", .string(DashModelInfo.stateFormat)),
      ("catalogFile", .string(catalogFile)),
      ("subscriber", .object(JSONObject())),
    ])
    return JSONWriter.write(.object(doc))
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
