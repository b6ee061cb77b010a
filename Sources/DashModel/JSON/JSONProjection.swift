#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One array of a document whose object elements the reader needs only some fields of.
///
/// Why: `show` of a 100,000-transaction file reads 15 fields of each history entry, and building
/// the other fields' values as a tree (a few hundred bytes each, 85 MB in all) was a third of its
/// time: fresh memory the kernel must zero page by page. With a projection, the parser checks
/// every byte of those elements as strictly as ever (the same errors at the same line and
/// column) and keeps only the kept keys' values.
public struct JSONProjection: Sendable {
  /// Keys from the document's root object to the array: `["subscriber", "transactions"]`.
  public let arrayPath: [String]
  /// The keys whose values each object element keeps, in any order.
  public let keep: [String]
  private let keepHashes: [UInt64]
  private let keepBytes: [[UInt8]]
  /// Keys that a piece parsed on another thread (`ArrayPieces`) must find in its first element to
  /// guess that it is inside this array. Only a guess: the parser uses a piece parsed that way
  /// only inside this array, and parses the bytes itself anywhere else.
  let signature: [String]
  /// Reads the elements where they are parsed instead of keeping them as JSON (see
  /// `ProjectedElementReader`); nil keeps them, projected, in the document.
  public let reader: (any ProjectedElementReader)?

  public init(arrayPath: [String], keep: [String], signature: [String], reader: (any ProjectedElementReader)? = nil) {
    self.arrayPath = arrayPath
    self.reader = reader
    self.keep = keep
    keepBytes = keep.map { Array($0.utf8) }
    keepHashes = keepBytes.map { $0.withUnsafeBufferPointer(StringInterner.hash) }
    self.signature = signature
  }

  /// Whether an element keeps the value of the key spelled `bytes` (plain ASCII, `hash` as the
  /// parser hashed them).
  @inline(__always)
  func keeps(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Bool {
    for k in keepHashes.indices where keepHashes[k] == hash {
      let same = keepBytes[k].withUnsafeBufferPointer { kept in
        guard kept.count == bytes.count else { return false }
        guard let a = kept.baseAddress, let b = bytes.baseAddress else { return true }  // both empty
        return memcmp(a, b, kept.count) == 0
      }
      if same { return true }
    }
    return false
  }

  /// Whether `value` looks like an element of this array (see `signature`).
  func looksLikeElement(_ value: JSON) -> Bool {
    guard case .object(let o) = value else { return false }
    return signature.allSatisfy { o[$0] != nil }
  }
}
