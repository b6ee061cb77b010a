/// A URL SubDash will call: a notification receiver (`deliver --to`, `simulate --deliver`,
/// `serve --notify`), a Retention Messaging realtime URL (set through `serve`'s API, read by
/// `subdash-retention` and the performance test), the App Store Server API's `--base-url`.
///
/// Why one check of its own: SwiftNIO traps (it does not throw) when a port does not fit in 16
/// bits, so `http://127.0.0.1:99999/` accepted anywhere became a crash of whatever called it
/// later. Every place a URL comes in refuses it with this check's reason, and every sender checks
/// it again right before a request is built, so a value stored before (or by hand) is a failed
/// attempt with a reason, never a crash. Pure Swift (no Foundation), so DashModel, the command
/// targets and the HTTP targets all use the same rules.
///
/// What passes: `http` or `https` (any case), `//`, optional `user@`, a host (a name or IPv4
/// address of letters, digits, `-`, `.`, `_`; or a bracketed IPv6 literal), an optional `:port` of
/// 1-65535 written in digits, then any path, query and fragment; printable ASCII only, at most
/// `maxLength` characters. An empty port (`http://h:/`) is refused: it is a typo more often than
/// a wish for the scheme's default, and the two readers (this one and Foundation's) need not agree
/// on it.
public struct OutboundURL: Sendable, Equatable {
  public let text: String
  public let isHTTPS: Bool
  /// As written; an IPv6 literal without its brackets.
  public let host: String
  /// As written; nil when the URL names none (the scheme's default: 80 or 443).
  public let port: Int?

  /// The port a connection goes to.
  public var effectivePort: Int { port ?? (isHTTPS ? 443 : 80) }

  public static let maxLength = 2_048

  /// Why a URL cannot be called, in a few words (callers say where it came from).
  public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
  }

  public static func check(_ text: String) -> Result<OutboundURL, Refusal> {
    let bytes = Array(text.utf8)
    guard !bytes.isEmpty else { return .failure(Refusal("the URL is empty")) }
    guard bytes.count <= maxLength else { return .failure(Refusal("the URL is longer than \(maxLength) characters")) }
    guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      return .failure(Refusal("the URL has a space, a control character or a non-ASCII character (percent-encode them)"))
    }
    guard let separator = firstIndex(of: Array("://".utf8), in: bytes) else {
      return .failure(Refusal("not an http:// or https:// URL"))
    }
    let scheme = String(decoding: bytes[..<separator], as: UTF8.self).lowercased()
    guard scheme == "http" || scheme == "https" else { return .failure(Refusal("not an http:// or https:// URL")) }
    let afterScheme = bytes[(separator + 3)...]
    let authorityEnd = afterScheme.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
    var authority = bytes[afterScheme.startIndex..<authorityEnd]
    // user:password@ comes before the host; the host and port are what is after the last @.
    if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[(at + 1)...] }
    let host: String
    let portText: ArraySlice<UInt8>?
    if authority.first == UInt8(ascii: "[") {
      guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return .failure(Refusal("the IPv6 address has no closing ]")) }
      let literal = authority[(authority.startIndex + 1)..<close]
      guard !literal.isEmpty, literal.contains(UInt8(ascii: ":")),
            literal.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else {
        return .failure(Refusal("the host is not an IPv6 address"))
      }
      host = String(decoding: literal, as: UTF8.self)
      let rest = authority[(close + 1)...]
      if rest.isEmpty {
        portText = nil
      } else if rest.first == UInt8(ascii: ":") {
        portText = rest.dropFirst()
      } else {
        return .failure(Refusal("only a :port may follow the IPv6 address"))
      }
    } else {
      let colons = authority.indices.filter { authority[$0] == UInt8(ascii: ":") }
      guard colons.count <= 1 else { return .failure(Refusal("the host has more than one ':' (an IPv6 address goes in [brackets])")) }
      let name = colons.first.map { authority[..<$0] } ?? authority
      guard name.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") }) else {
        return .failure(Refusal("the host may hold only letters, digits, '-', '.' and '_'"))
      }
      host = String(decoding: name, as: UTF8.self)
      portText = colons.first.map { authority[($0 + 1)...] }
    }
    guard !host.isEmpty else { return .failure(Refusal("the URL names no host")) }
    var port: Int?
    if let portText {
      guard !portText.isEmpty else { return .failure(Refusal("the port after ':' is empty")) }
      let written = String(decoding: portText, as: UTF8.self)
      guard portText.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
        return .failure(Refusal("the port \(written) is not a number"))
      }
      // Leading zeros are digits like any other, but a value is read only from a bounded count of
      // them, so no arithmetic can overflow however long the text.
      let significant = portText.drop { $0 == UInt8(ascii: "0") }
      let value = significant.count > 5 ? nil : significant.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
      guard let value, (1...65_535).contains(value) else {
        return .failure(Refusal("the port \(written.count > 12 ? String(written.prefix(12)) + "…" : written) is outside 1-65535"))
      }
      port = value
    }
    return .success(OutboundURL(text: text, isHTTPS: scheme == "https", host: host, port: port))
  }

  /// The reason a URL cannot be called, or nil when it can.
  public static func refusal(_ text: String) -> String? {
    if case .failure(let refusal) = check(text) { return refusal.description }
    return nil
  }

  private static func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
    guard bytes.count >= needle.count else { return nil }
    return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
  }

  private static func isLetterOrDigit(_ b: UInt8) -> Bool {
    (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
  }

  private static func isHexDigit(_ b: UInt8) -> Bool {
    (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "f")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "F")) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
  }
}
