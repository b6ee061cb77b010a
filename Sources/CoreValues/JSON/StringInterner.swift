#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Lets equal strings met during one parse share one allocation.
///
/// Swift stores strings of up to 15 UTF-8 bytes inline, without allocating; longer ones each get a
/// heap buffer. A history of 100,000 transactions repeats the same long keys
/// (`originalTransactionId`, `subscriptionGroupIdentifier`, …) and values (`bundleId`, `type`,
/// `appAccountToken`, …) on every entry: sharing them removes most of the parse's allocations and
/// makes later key comparisons pointer-equal. A small direct-mapped table is enough, since
/// repeats are close together; a miss only costs the allocation it would have cost anyway.
package struct StringInterner {
  private let mask: Int
  private var slots: [String?]

  /// A table of 8 to 1,024 slots, about one per 64 bytes of input.
  init(inputBytes: Int) {
    var n = 8
    while n < 1024 && n * 64 < inputBytes { n *= 2 }
    mask = n - 1
    slots = [String?](repeating: nil, count: n)
  }

  /// Strings this long or longer allocate; much longer ones rarely repeat.
  static let internedLengths = 16...64

  /// An ASCII string for `bytes`, shared with an equal earlier one when possible.
  mutating func string(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> String {
    guard Self.internedLengths.contains(bytes.count) else { return String(decoding: bytes, as: UTF8.self) }
    let slot = Int(truncatingIfNeeded: hash) & mask
    if let s = slots[slot], Self.equal(s, bytes) { return s }
    let s = String(decoding: bytes, as: UTF8.self)
    slots[slot] = s
    return s
  }

  private static func equal(_ s: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard s.utf8.count == bytes.count else { return false }
    // Eight bytes at a time in place: these are 16 to 64 bytes, where calling memcmp cost more
    // than the comparison.
    return s.utf8.withContiguousStorageIfAvailable { u in
      guard let a = UnsafeRawPointer(u.baseAddress), let b = UnsafeRawPointer(bytes.baseAddress) else { return u.isEmpty }
      let n = u.count
      var k = 0
      while k + 8 <= n {
        if a.loadUnaligned(fromByteOffset: k, as: UInt64.self) != b.loadUnaligned(fromByteOffset: k, as: UInt64.self) { return false }
        k += 8
      }
      while k < n {
        if a.load(fromByteOffset: k, as: UInt8.self) != b.load(fromByteOffset: k, as: UInt8.self) { return false }
        k += 1
      }
      return true
    } ?? false
  }

  /// A hash of the bytes, eight at a time: all of them up to 64 bytes; beyond that the length and
  /// the first and last eight bytes, which is enough to tell keys apart cheaply. Equal bytes give
  /// equal hashes, which is all the duplicate-key check and the table rely on.
  package static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let n = bytes.count
    var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(n)
    guard n > 0, let base = bytes.baseAddress else { return h }
    let raw = UnsafeRawPointer(base)
    func mix(_ word: UInt64) { h = (h ^ word) &* 0x100_0000_01b3; h ^= h >> 29 }
    if n > 64 {
      mix(raw.loadUnaligned(as: UInt64.self))
      mix(raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
      return h
    }
    var k = 0
    while k + 8 <= n {
      mix(raw.loadUnaligned(fromByteOffset: k, as: UInt64.self))
      k += 8
    }
    if k < n {
      var tail: UInt64 = 0
      for j in k..<n { tail = tail << 8 | UInt64(base[j]) }
      mix(tail)
    }
    return h
  }
}
