import DashModel
import CoreValues
import Foundation
import Testing

/// The one base64 codec reads four characters at a time through a table; these check it byte for
/// byte against Foundation's decoder and RFC 4648's vectors, and that each form refuses what is
/// not in it, wherever the stray character sits.
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
      #expect(Base64URL.decode(Substring(text), as: .url) == bytes, "length \(length)")
      #expect(Base64URL.decode(Substring(text), as: .url) == Self.reference(text), "length \(length)")
      let standard = Base64URL.encodeStandard(bytes)
      #expect(standard == Data(bytes).base64EncodedString(), "length \(length)")
      #expect(Base64URL.decode(standard, as: .standard) == bytes, "length \(length)")
      #expect(Base64URL.decode(standard, as: .any) == bytes, "length \(length)")
    }
  }

  /// RFC 4648 §10.
  @Test func theRFCVectors() {
    let vectors = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")]
    for (plain, encoded) in vectors {
      #expect(Base64URL.encodeStandard(Array(plain.utf8)) == encoded)
      #expect(Base64URL.encode(Array(plain.utf8)) == encoded.filter { $0 != "=" })
      #expect(Base64URL.decode(encoded, as: .standard) == Array(plain.utf8))
    }
  }

  @Test func aStrayCharacterAnywhereIsRefused() {
    let text = Base64URL.encode(Array("{\"alg\":\"ES256\",\"x5c\":[]}".utf8))
    for position in text.indices {
      for stray in ["+", "/", "=", " ", ".", "é", "\u{0}"] {
        var bad = text
        bad.replaceSubrange(position...position, with: stray)
        #expect(Base64URL.decode(Substring(bad), as: .url) == nil, "\(stray) at \(text.distance(from: text.startIndex, to: position))")
        if ![" ", ".", "é", "\u{0}"].contains(stray) { continue }
        #expect(Base64URL.decode(bad, as: .any) == nil, "\(stray) at \(text.distance(from: text.startIndex, to: position))")
      }
    }
  }

  @Test func eachFormTakesItsOwnAlphabetAndPadding() {
    #expect(Base64URL.decode("_-8", as: .url) == [0xFF, 0xEF])
    #expect(Base64URL.decode("_-8", as: .standard) == nil)
    #expect(Base64URL.decode("/+8=", as: .standard) == [0xFF, 0xEF])
    #expect(Base64URL.decode("/+8=", as: .url) == nil)
    #expect(Base64URL.decode("/+8", as: .standard) == nil, "standard base64 is padded")
    #expect(Base64URL.decode("/-8=", as: .any) == [0xFF, 0xEF])
    #expect(Base64URL.decode("QQ==", as: .any) == [0x41])
    #expect(Base64URL.decode("QQ===", as: .any) == nil, "three padding characters")
    #expect(Base64URL.decode("QQ==QQ", as: .any) == nil, "data after padding")
  }

  @Test func aLengthThatCannotHoldWholeBytesIsRefused() {
    #expect(Base64URL.decode("A", as: .url) == nil)
    #expect(Base64URL.decode("AAAAA", as: .url) == nil)
    #expect(Base64URL.decode("A===", as: .any) == nil)
    #expect(Base64URL.decode("", as: .url) == [])
    #expect(Base64URL.decode("AA", as: .url) == [0])
  }

  @Test func aSubstringInTheMiddleOfAJWSDecodesAlone() {
    let jws = "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ.c2ln"
    let parts = jws.split(separator: ".")
    #expect(Base64URL.decode(parts[1], as: .url) == Array("{\"a\":1}".utf8))
    let bytes = Array(jws.utf8)
    #expect(Base64URL.decode(bytes: bytes[21..<31], as: .url) == Array("{\"a\":1}".utf8))
  }
}
