import DashModel
import CoreValues
import OutboundHTTP
import Testing

/// The one check every URL SubDash calls passes (OutboundURL), and its second half right before a
/// request (BoundedExchange.refusal: AsyncHTTPClient's reading must agree on the port). A port
/// outside 1-65535 once reached SwiftNIO, which traps on it.
@Suite("A URL SubDash will call: the port and the rest, at their boundaries")
struct OutboundURLTests {
  @Test("ports 1 and 65535 pass; 0, 65536, 99999, letters, an empty port and a sign are refused, saying why", arguments: [
    ("http://127.0.0.1:1/", nil),
    ("http://127.0.0.1:65535/", nil),
    ("http://127.0.0.1:0/", "the port 0 is outside 1-65535"),
    ("http://127.0.0.1:65536/", "the port 65536 is outside 1-65535"),
    ("http://127.0.0.1:99999/", "the port 99999 is outside 1-65535"),
    ("http://127.0.0.1:8o8o/", "the port 8o8o is not a number"),
    ("http://127.0.0.1:/", "the port after ':' is empty"),
    ("http://127.0.0.1:-1/", "the port -1 is not a number"),
    ("http://127.0.0.1:+80/", "the port +80 is not a number"),
    ("http://127.0.0.1:99999999999999999999999999/", "the port 999999999999… is outside 1-65535"),
  ] as [(String, String?)])
  func ports(url: String, refusal: String?) {
    #expect(OutboundURL.refusal(url) == refusal)
    #expect(BoundedExchange.refusal(url) == refusal)
  }

  @Test("an IPv6 literal with a port is read inside its brackets; a bad port after one is refused")
  func ipv6() throws {
    let ok = try OutboundURL.check("http://[::1]:8080/apple/notifications").get()
    #expect(ok.host == "::1" && ok.port == 8080 && !ok.isHTTPS)
    #expect(BoundedExchange.refusal("http://[::1]:8080/apple/notifications") == nil)
    #expect(try OutboundURL.check("https://[2001:db8::7]/x").get().effectivePort == 443)
    #expect(OutboundURL.refusal("http://[::1]:99999/") == "the port 99999 is outside 1-65535")
    #expect(OutboundURL.refusal("http://[::1]:/") == "the port after ':' is empty")
    #expect(OutboundURL.refusal("http://[::1/") == "the IPv6 address has no closing ]")
    #expect(OutboundURL.refusal("http://::1:8080/") == "the host has more than one ':' (an IPv6 address goes in [brackets])")
  }

  @Test("only http and https with a host, in printable ASCII; a user@ before the host is not the port")
  func theRest() throws {
    #expect(OutboundURL.refusal("ftp://example.com/") == "not an http:// or https:// URL")
    #expect(OutboundURL.refusal("example.com:8080") == "not an http:// or https:// URL")
    #expect(OutboundURL.refusal("http:///retention") == "the URL names no host")
    #expect(OutboundURL.refusal("") == "the URL is empty")
    #expect(OutboundURL.refusal("http://exa mple.com/") != nil)
    #expect(OutboundURL.refusal("http://example.com/\u{1B}[2J") != nil)
    #expect(OutboundURL.refusal("http://" + String(repeating: "a", count: 2_100)) == "the URL is longer than 2048 characters")
    let upper = try OutboundURL.check("HTTPS://Example.COM/retention?x=1#y").get()
    #expect(upper.isHTTPS && upper.host == "Example.COM" && upper.port == nil)
    #expect(try OutboundURL.check("http://me:secret@127.0.0.1:8080/").get().port == 8080)
    #expect(OutboundURL.refusal("http://me:secret@127.0.0.1:99999/") == "the port 99999 is outside 1-65535")
  }
}
