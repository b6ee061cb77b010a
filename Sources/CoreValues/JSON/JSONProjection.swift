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
  /// The kept keys as plain memory, which the parser reads without retaining anything.
  private let table: KeptKeyTable
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
    table = KeptKeyTable(keep)
    self.signature = signature
  }

  /// The kept keys for the parser, valid while this projection (or a copy of it) is alive.
  var keptKeys: KeptKeys { table.keys }

  /// Whether `value` looks like an element of this array (see `signature`).
  func looksLikeElement(_ value: JSON) -> Bool {
    guard case .object(let o) = value else { return false }
    return signature.allSatisfy { o[$0] != nil }
  }
}

/// The kept keys of a projection, as the parser looks them up for every key of every element.
///
/// Why plain memory: the parser used to read them from the projection's arrays, and each read
/// copied the projection (retaining its arrays). The threads that parse pieces all retained the
/// same arrays, for every key of every element: a sixth of `show --json`'s CPU time in `perf`,
/// most of it those counts bouncing between the cores. `KeptKeys` is a few pointers into memory
/// this table owns; copying it retains nothing.
final class KeptKeyTable: @unchecked Sendable {
  let keys: KeptKeys
  private let hashes: UnsafeMutableBufferPointer<UInt64>
  private let bytes: UnsafeMutableBufferPointer<UInt8>
  private let ends: UnsafeMutableBufferPointer<Int>

  /// Written once here and only read after, by any thread (hence `@unchecked Sendable`).
  init(_ keep: [String]) {
    let utf8 = keep.map { Array($0.utf8) }
    hashes = .allocate(capacity: max(1, utf8.count))
    bytes = .allocate(capacity: max(1, utf8.reduce(0) { $0 + $1.count }))
    ends = .allocate(capacity: max(1, utf8.count))
    var end = 0
    for (k, key) in utf8.enumerated() {
      hashes[k] = key.withUnsafeBufferPointer(StringInterner.hash)
      for b in key { bytes[end] = b; end += 1 }
      ends[k] = end
    }
    keys = KeptKeys(count: utf8.count, hashes: UnsafeBufferPointer(hashes), bytes: UnsafeBufferPointer(bytes), ends: UnsafeBufferPointer(ends))
  }

  deinit {
    hashes.deallocate()
    bytes.deallocate()
    ends.deallocate()
  }
}

/// See `KeptKeyTable`. Key `k` is `bytes[(k == 0 ? 0 : ends[k - 1])..<ends[k]]`, hashed `hashes[k]`.
struct KeptKeys {
  let count: Int
  let hashes: UnsafeBufferPointer<UInt64>
  let bytes: UnsafeBufferPointer<UInt8>
  let ends: UnsafeBufferPointer<Int>

  /// Whether the key spelled `key` (plain ASCII, `hash` as the parser hashed it) is kept.
  @inline(__always)
  func contains(_ key: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Bool {
    for k in 0..<count where hashes[k] == hash {
      let start = k == 0 ? 0 : ends[k - 1]
      guard ends[k] - start == key.count else { continue }
      guard let a = bytes.baseAddress, let b = key.baseAddress else { return true }  // both empty
      if memcmp(a + start, b, key.count) == 0 { return true }
    }
    return false
  }
}
