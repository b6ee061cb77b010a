#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues
import DashModel
import SubscriberStorage

/// read(2) on descriptor 0 (a method named `read` would hide the C function inside `Importer`).
private func readDescriptorZero(into buffer: UnsafeMutableRawBufferPointer) -> Int {
  read(0, buffer.baseAddress, buffer.count)
}

/// Reading the importer's inputs and catalog from disk, with the same limits and messages as
/// state files (the command layer stays free of file handling).
extension Importer {
  /// Inputs larger than this are refused before reading (a 10,000-transaction history is ~25 MB).
  public static let maxInputBytes = 512 << 20

  /// Reads one input file, `-` for standard input (a pipe, a terminal or a redirected file).
  public static func readInput(_ path: String) throws(ImportError) -> ImportInput {
    if path == "-" { return ImportInput(label: path, bytes: try readStandardInput()) }
    switch Posix.readAll(path: path, limit: maxInputBytes) {
    case .failure(let why): throw ImportError(input: path, message: "cannot read: \(why)")
    case .success(let bytes): return ImportInput(label: path, bytes: bytes)
    }
  }

  /// Standard input to its end, refused past `maxInputBytes` (a pipe has no size to check first).
  static func readStandardInput() throws(ImportError) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = buffer.withUnsafeMutableBytes { readDescriptorZero(into: $0) }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else { throw ImportError(input: "-", message: "cannot read standard input: \(String(cString: strerror(errno)))") }
      if n == 0 { return bytes }
      guard bytes.count + n <= maxInputBytes else {
        throw ImportError(input: "-", message: "cannot read: standard input is over the limit of \(maxInputBytes) bytes")
      }
      bytes += buffer[0..<n]
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
