#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a byte string first occurs in a buffer: the C library's `memmem` (a two-way search with
/// vector instructions in glibc), looked up rather than linked because Swift's Glibc module leaves
/// out the headers' `_GNU_SOURCE` parts; a plain search where a libc has none.
enum ByteSearch {
  static func firstIndex(of needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard !needle.isEmpty, start >= 0, start <= haystack.count, needle.count <= haystack.count - start,
          let base = haystack.baseAddress else { return nil }
    if let memmem = Self.memmem {
      let hit = needle.withUnsafeBytes { n in memmem(base + start, haystack.count - start, n.baseAddress, n.count) }
      return hit.map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) }
    }
    let last = haystack.count - needle.count
    var i = start
    while i <= last {
      var k = 0
      while k < needle.count && haystack[i + k] == needle[k] { k += 1 }
      if k == needle.count { return i }
      i += 1
    }
    return nil
  }

  private typealias MemMem = @convention(c) (UnsafeRawPointer?, Int, UnsafeRawPointer?, Int) -> UnsafeMutableRawPointer?
  private static let memmem: MemMem? = {
    #if canImport(Darwin)
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: -2), "memmem") else { return nil }  // RTLD_DEFAULT
    #else
    guard let symbol = dlsym(nil, "memmem") else { return nil }  // nil: RTLD_DEFAULT
    #endif
    return unsafeBitCast(symbol, to: MemMem.self)
  }()
}
