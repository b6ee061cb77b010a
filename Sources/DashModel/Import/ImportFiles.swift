/// Reading the importer's inputs and catalog from disk, with the same limits and messages as
/// state files (the command layer stays free of file handling).
extension Importer {
  /// Inputs larger than this are refused before reading (a 10,000-transaction history is ~25 MB).
  public static let maxInputBytes = 512 << 20

  /// Reads one input file, `-` for standard input.
  public static func readInput(_ path: String) throws(ImportError) -> ImportInput {
    switch Posix.readAll(path: path == "-" ? "/dev/stdin" : path, limit: maxInputBytes) {
    case .failure(let why): throw ImportError(input: path, message: "cannot read: \(why)")
    case .success(let bytes): return ImportInput(label: path, bytes: bytes)
    }
  }

  /// The catalog for a state file at `statePath`: a reference when the .storekit file sits in the
  /// state file's directory (the loader only follows references there), else an inline copy.
  public static func catalogChoice(catalogPath: String, statePath: String) throws(StateFileError) -> CatalogChoice {
    let name = PathName.fileName(of: catalogPath)
    let bytes: [UInt8]
    switch Posix.readAll(path: catalogPath, limit: StateFile.maxCatalogBytes) {
    case .failure(let why): throw StateFileError(file: catalogPath, message: "cannot read the catalog: \(why)")
    case .success(let b): bytes = b
    }
    let json = try StateFile.parse(bytes, fileName: catalogPath)
    do throws(DecodeError) {
      let r = try ObjectReader(json, at: .root)
      _ = try StoreKitReader.read(r)
    } catch {
      throw StateFile.located(error, in: bytes, fileName: catalogPath)
    }
    if let a = Posix.realPath(PathName.directory(of: catalogPath)), let b = Posix.realPath(PathName.directory(of: statePath)), a == b {
      return .file(name)
    }
    return .inline(json.objectValue!)
  }
}
