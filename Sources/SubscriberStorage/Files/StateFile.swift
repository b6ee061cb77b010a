import CoreValues
import DashModel
/// Loading and saving a state file. Loading never writes; saving is locked, re-reads what is on
/// disk under the lock, applies the change to *that*, and writes atomically, so a concurrent
/// writer's change (the simulator, another dashboard) is never overwritten.
public enum StateFile {
  /// State documents are small (the history lives in the journal); anything larger than this is
  /// refused before parsing so a hostile or wrong file cannot exhaust memory.
  public static let maxDocumentBytes = 256 << 20
  public static let maxCatalogBytes = 16 << 20

  /// Loads and validates a state file and its catalog.
  ///
  /// In a directory others can write, only a file of this user's own with one name is loaded
  /// (`Posix.FileOwner.oursWhereOthersWrite`): the receivers, `serve` and `deliver` load here, and
  /// a file a neighbour planted at a subscriber's name must not be answered from or merged into.
  /// `loadForViewing` and the dashboard's `load(path:projection:)` read anyone's file.
  public static func load(path: String) throws(StateFileError) -> SubscriptionState {
    try load(path: path, followSymlinks: true, owner: .oursWhereOthersWrite)
  }

  /// `load`, with the elements of one array read in part (`JSONProjection`): the dashboard reads
  /// its inline history with `InlineHistory.viewingProjection`, since only the story reads it.
  /// Anyone's file, as `show` reads it: the dashboard's saves go through `update`, which re-reads
  /// under the lock with the owner check.
  public static func load(path: String, projection: JSONProjection?) throws(StateFileError) -> SubscriptionState {
    try load(path: path, followSymlinks: true, projection: projection, owner: .anyone)
  }

  /// `followSymlinks: false` for the write path: a state file that is a symbolic link is refused
  /// there, so a link planted in a directory SubDash writes (`<id>.json` pointing at another
  /// user's or another subscriber's file) can neither feed a save nor be replaced by one.
  ///
  /// `owner`: who may own it (`Posix.FileOwner`); the write path's default, since a save merges
  /// into what it reads here.
  static func load(path: String, followSymlinks: Bool, projection: JSONProjection? = nil,
                   owner: Posix.FileOwner = .oursWhereOthersWrite) throws(StateFileError) -> SubscriptionState {
    let name = PathName.fileName(of: path)
    let bytes: [UInt8]
    switch Posix.readAll(path: path, limit: maxDocumentBytes, followSymlinks: followSymlinks,
                              symlinkRefusal: "is a symbolic link; SubDash saves a state file only where it is, never through a link (open the file it points to)",
                              owner: owner) {
    case .failure(let why): throw StateFileError(file: name, message: "cannot read: \(why)")
    case .success(let b): bytes = b
    }
    return try decode(bytes, fileName: name, projection: projection) { (relative) throws(StateFileError) in
      try loadCatalogFile(relative, besides: path)
    }
  }

  /// Loads a state file only to look at it (`show`): the same checks and errors as `load`, but a
  /// big file is mapped rather than copied into memory (`MappedFile`), and its inline history
  /// entries are read as the story's transactions while it is parsed
  /// (`InlineHistory.storyProjection`). Never write this state back; saves re-read the file.
  public static func loadForViewing(path: String) throws(StateFileError) -> SubscriptionState {
    let name = PathName.fileName(of: path)
    let catalog = { (relative: String) throws(StateFileError) -> Catalog in try loadCatalogFile(relative, besides: path) }
    let projection = InlineHistory.storyProjection
    let mapped: MappedFile
    switch MappedFile.open(path: path, limit: maxDocumentBytes) {
    case .failure(let why): throw StateFileError(file: name, message: "cannot read: \(why)")
    case .success(.read(let bytes)): return try decode(bytes, fileName: name, projection: projection, catalogFile: catalog)
    case .success(.mapped(let m)): mapped = m
    }
    let state = try mapped.whileReading(fileName: path) { (bytes) throws(StateFileError) in
      try decode(bytes, fileName: name, projection: projection, catalogFile: catalog)
    }
    if let state { return state }
    // Another file is being read mapped on another thread at this moment: read this one into
    // memory, read for the story all the same (the viewer's state must not depend on who else
    // reads what at the same time).
    return try load(path: path, followSymlinks: true, projection: projection, owner: .anyone)
  }

  /// Decodes a state document from bytes. `catalogFile` resolves a `catalogFile` reference.
  public static func decode(
    _ bytes: [UInt8], fileName: String, projection: JSONProjection? = nil,
    catalogFile: (String) throws(StateFileError) -> Catalog
  ) throws(StateFileError) -> SubscriptionState {
    let result: Result<SubscriptionState, StateFileError> = bytes.withUnsafeBufferPointer { buffer in
      do throws(StateFileError) { return .success(try decode(buffer, fileName: fileName, projection: projection, catalogFile: catalogFile)) } catch { return .failure(error) }
    }
    return try result.get()
  }

  static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, fileName: String, projection: JSONProjection? = nil,
    catalogFile: (String) throws(StateFileError) -> Catalog
  ) throws(StateFileError) -> SubscriptionState {
    let parsed = try parse(bytes, fileName: fileName, projection: projection)
    var document: StateDocument
    do {
      document = try StateDocument(try ObjectReader(parsed.json, at: .root))
      // The inline history, when the projection's reader read it while parsing (the document
      // holds an empty array in its place).
      if !parsed.projectedRuns.isEmpty {
        let path = document.subscriber.transactions.path
        document.subscriber.transactions = try InlineHistory(viewing: parsed.projectedRuns, path: path)
      }
    } catch {
      throw located(error, in: bytes, fileName: fileName)
    }
    let catalog: Catalog
    switch document.catalogReference {
    case .inline:
      do throws(DecodeError) {
        // `.inline` means `catalog` is an object (StateDocument checked it); said, not trapped.
        guard let inline = document.inlineCatalog else { throw DecodeError(JSONPath.root.appending("catalog"), "expected an object") }
        catalog = try InlineCatalogMemo.shared.catalog(inline) { (json) throws(DecodeError) in
          try StoreKitReader.read(ObjectReader(json, at: JSONPath.root.appending("catalog")))
        }
      } catch {
        throw located(error, in: bytes, fileName: fileName)
      }
    case .file(let relative):
      do {
        catalog = try catalogFile(relative)
      } catch {
        // Errors about the reference itself point at it in the state file.
        if error.file == fileName, let path = error.path, error.line == nil {
          throw located(DecodeError(path, error.message), in: bytes, fileName: fileName)
        }
        throw error
      }
    }
    return SubscriptionState(document: document, catalog: catalog)
  }

  /// Reads a .storekit (or catalog JSON) file that must live inside the state file's directory.
  /// Support staff open files they did not write: a state file must not be able to make SubDash
  /// read arbitrary paths (../../etc/…, or a symlink pointing out), so such references are refused.
  package static func loadCatalogFile(_ relative: String, besides statePath: String) throws(StateFileError) -> Catalog {
    let stateName = PathName.fileName(of: statePath)
    let dir = PathName.directory(of: statePath)
    guard !relative.isEmpty, !relative.hasPrefix("/") else {
      throw StateFileError(file: stateName, path: JSONPath.root.appending("catalogFile"), message: "\"\(relative)\" must be a path relative to the state file's directory")
    }
    // A NUL would end the C string early ("a.storekit\u0000…" opens a.storekit), and control
    // characters in a file name are never what someone meant.
    guard !relative.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
      throw StateFileError(file: stateName, path: JSONPath.root.appending("catalogFile"), message: "the catalog file name contains a control character")
    }
    let full = dir + "/" + relative
    guard let realDir = Posix.realPath(dir) else {
      throw StateFileError(file: stateName, message: "cannot resolve the state file's directory")
    }
    guard let realCatalog = Posix.realPath(full) else {
      throw StateFileError(file: relative, message: "catalog file not found (named by \(stateName) at $.catalogFile)")
    }
    if realCatalog == realDir {
      throw StateFileError(file: stateName, path: JSONPath.root.appending("catalogFile"), message: "\"\(relative)\" is the state file's directory, not a catalog file")
    }
    guard realCatalog.hasPrefix(realDir + "/") else {
      throw StateFileError(file: stateName, path: JSONPath.root.appending("catalogFile"), message: "\"\(relative)\" resolves outside the state file's directory; copy the catalog beside the state file")
    }
    if let realState = Posix.realPath(statePath), realState == realCatalog {
      throw StateFileError(file: stateName, path: JSONPath.root.appending("catalogFile"), message: "the catalog file is the state file itself")
    }
    let bytes: [UInt8]
    switch Posix.readAll(path: full, limit: maxCatalogBytes) {
    case .failure(let why): throw StateFileError(file: relative, message: "cannot read the catalog: \(why)")
    case .success(let b): bytes = b
    }
    let json = try parse(bytes, fileName: relative)
    do throws(DecodeError) {
      let r = try ObjectReader(json, at: .root)
      if r.has("subscriber") {
        throw DecodeError(.root, "this is a SubDash state file, not a catalog (.storekit) file")
      }
      return try StoreKitReader.read(r)
    } catch {
      throw located(error, in: bytes, fileName: relative)
    }
  }

  package static func parse(_ bytes: [UInt8], fileName: String) throws(StateFileError) -> JSON {
    let result: Result<JSON, StateFileError> = bytes.withUnsafeBufferPointer { buffer in
      do throws(StateFileError) { return .success(try parse(buffer, fileName: fileName)) } catch { return .failure(error) }
    }
    return try result.get()
  }

  static func parse(_ bytes: UnsafeBufferPointer<UInt8>, fileName: String) throws(StateFileError) -> JSON {
    try parse(bytes, fileName: fileName, projection: nil).json
  }

  /// The document, and the projected array as the projection's reader read it, when it has one.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>, fileName: String, projection: JSONProjection?) throws(StateFileError) -> JSONParser.Parsed {
    do {
      return try JSONParser.parse(bytes, maxDepth: JSONParser.defaultMaxDepth, piecesFrom: ArrayPieces.parallelFrom, projection: projection)
    } catch {
      throw StateFileError(file: fileName, line: error.line, column: error.column, message: "invalid JSON: \(error.message)")
    }
  }

  /// Attaches the line and column of the offending value to a decode error.
  package static func located(_ error: DecodeError, in bytes: [UInt8], fileName: String) -> StateFileError {
    bytes.withUnsafeBufferPointer { located(error, in: $0, fileName: fileName) }
  }

  static func located(_ error: DecodeError, in bytes: UnsafeBufferPointer<UInt8>, fileName: String) -> StateFileError {
    var e = StateFileError(file: fileName, path: error.path, message: error.message)
    // Point at the value itself, or at its parent object when the key is missing.
    var path = error.path
    while true {
      if let offset = JSONParser.offset(of: path, in: bytes) {
        let (l, c) = JSONParser.lineAndColumn(of: offset, in: bytes)
        e.line = l
        e.column = c
        break
      }
      if path.components.isEmpty { break }
      path.components.removeLast()
    }
    return e
  }
}
