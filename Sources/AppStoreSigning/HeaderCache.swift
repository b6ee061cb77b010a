import DashModel
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues

/// A protected header decoded once, with the chain its `x5c` names once that chain is validated.
/// One signer's JWS all carry the same header, and its `x5c` is most of each JWS's bytes.
final class DecodedHeader: Sendable {
  let header: JWSHeader
  /// Set by the first JWS whose chain validated with this header; later JWS only check their
  /// `signedDate` against its window.
  let chain = Mutex<JWSVerifier.ValidatedChain?>(nil)

  init(header: JWSHeader) { self.header = header }
}

/// Decoded headers by their base64url text. Bounded: a flood of distinct headers empties the
/// table rather than growing it. Safe to use from several threads at once.
final class HeaderCache: Sendable {
  private let table = Mutex<[HeaderText: DecodedHeader]>([:])
  private let limit: Int

  init(limit: Int) { self.limit = limit }

  /// The header of `text` (a JWS's first segment), decoded the first time it is met.
  func decoded(_ text: ArraySlice<UInt8>) throws -> DecodedHeader {
    let key = HeaderText(text)
    if let known = table.withLock({ $0[key] }) { return known }
    guard let headerBytes = Base64URL.decode(bytes: text, as: .url) else { throw SigningError("header is not base64url") }
    guard let header = try? JSONDecoder().decode(JWSHeader.self, from: Data(headerBytes)) else {
      throw SigningError("header is not a JSON object with string alg and x5c")
    }
    let decoded = DecodedHeader(header: header)
    table.withLock {
      if $0.count >= limit { $0.removeAll(keepingCapacity: true) }
      $0[HeaderText(ArraySlice(Array(text)))] = decoded  // its own copy: not the whole JWS the header came from
    }
    return decoded
  }
}

/// A header's bytes as a table key. Hashing the whole ~4 KB text on every lookup (and the chain
/// cache's `x5c[0]|x5c[1]` key) was 6.5 % of a verify profile (issue 23); the hash takes the
/// length and 64 bytes spread over the text (certificates differ all along: serial, key,
/// signature), and equality is one `memcmp`. Texts made to collide only cost a compare each, in a
/// table of at most `headerCacheLimit` entries.
struct HeaderText: Hashable, @unchecked Sendable {
  let bytes: ArraySlice<UInt8>

  init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

  func hash(into hasher: inout Hasher) {
    bytes.withUnsafeBufferPointer { b in
      hasher.combine(b.count)
      guard !b.isEmpty else { return }
      let step = max(1, b.count / 64)
      var i = b.count - 1
      // From the end backwards: the leaf certificate is first, but the end is the root's, which
      // many headers share; stepping from the end still reaches the leaf's bytes.
      while i >= 0 { hasher.combine(b[i]); i -= step }
    }
  }

  static func == (a: HeaderText, b: HeaderText) -> Bool {
    a.bytes.count == b.bytes.count && a.bytes.withUnsafeBufferPointer { x in
      b.bytes.withUnsafeBufferPointer { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
    }
  }
}
