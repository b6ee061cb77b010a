@testable import AppStoreSigning
import Foundation
import Testing

/// The verifier's base64url decoder reads four characters at a time through a table; these check
/// it byte for byte against Foundation's standard-base64 decoder, and that it refuses what is not
/// base64url, wherever the stray character sits.
@Suite struct Base64URLTests {
  /// Foundation's decoder on the same text turned into padded standard base64.
  static func reference(_ text: String) -> [UInt8]? {
    var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
    while standard.utf8.count % 4 != 0 { standard += "=" }
    return Data(base64Encoded: standard).map(Array.init)
  }

  @Test func everyLengthDecodesAsFoundationDoes() {
    var generator = SystemRandomNumberGenerator()
    for length in 0...67 {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let text = Base64URL.encode(bytes)
      #expect(Base64URL.decode(Substring(text)) == bytes, "length \(length)")
      #expect(Base64URL.decode(Substring(text)) == Self.reference(text), "length \(length)")
    }
  }

  @Test func aStrayCharacterAnywhereIsRefused() {
    let text = Base64URL.encode(Array("{\"alg\":\"ES256\",\"x5c\":[]}".utf8))
    for position in text.indices {
      for stray in ["+", "/", "=", " ", ".", "é", "\u{0}"] {
        var bad = text
        bad.replaceSubrange(position...position, with: stray)
        #expect(Base64URL.decode(Substring(bad)) == nil, "\(stray) at \(text.distance(from: text.startIndex, to: position))")
      }
    }
  }

  @Test func aLengthThatCannotHoldWholeBytesIsRefused() {
    #expect(Base64URL.decode("A") == nil)
    #expect(Base64URL.decode("AAAAA") == nil)
    #expect(Base64URL.decode("") == [])
    #expect(Base64URL.decode("AA") == [0])
    #expect(Base64URL.decode("_-8") == [0xFF, 0xEF])
  }

  @Test func aSubstringInTheMiddleOfAJWSDecodesAlone() {
    let jws = "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ.c2ln"
    let parts = jws.split(separator: ".")
    #expect(Base64URL.decode(parts[1]) == Array("{\"a\":1}".utf8))
  }
}
