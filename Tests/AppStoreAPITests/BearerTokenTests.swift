@testable import AppStoreAPI
import Crypto
import DashModel
import Foundation
import LocalAppStoreAPI
import Testing
import CoreValues

@Suite("The bearer token Apple wants")
struct BearerTokenTests {
  let team = Team()

  func parts(_ token: String) throws -> (header: [String: Any], claims: [String: Any]) {
    let p = token.split(separator: ".")
    let header = try JSONSerialization.jsonObject(with: Data(Base64URL.decode(p[0])!)) as! [String: Any]
    let claims = try JSONSerialization.jsonObject(with: Data(Base64URL.decode(p[1])!)) as! [String: Any]
    return (header, claims)
  }

  @Test("ES256 with kid and typ; iss, iat, exp 20 minutes later, aud and bid; accepted by Apple's checks")
  func claims() throws {
    let now = Date(timeIntervalSince1970: 1_795_000_000.7)
    let token = try BearerToken(credentials: team.credentials).token(now: now)
    let (header, claims) = try parts(token)
    #expect(header as NSDictionary == ["alg": "ES256", "kid": team.keyID, "typ": "JWT"] as NSDictionary)
    #expect(claims as NSDictionary == [
      "iss": team.issuerID, "iat": 1_795_000_000, "exp": 1_795_001_200, "aud": "appstoreconnect-v1", "bid": team.bundleID,
    ] as NSDictionary)
    #expect(team.check.rejection(authorization: "Bearer " + token, now: now) == nil)
  }

  @Test("one token is reused until a minute before it expires, then replaced")
  func reuse() throws {
    let source = BearerToken(credentials: team.credentials)
    let t0 = Date(timeIntervalSince1970: 1_795_000_000)
    let first = try source.token(now: t0)
    #expect(try source.token(now: t0.addingTimeInterval(1_139)) == first)
    let renewed = try source.token(now: t0.addingTimeInterval(1_140))
    #expect(renewed != first)
    #expect(try parts(renewed).claims["iat"] as? Int == 1_795_001_140)
    // A clock that moved backwards (before the cached iat) gets a fresh token too, never one "from the future".
    #expect(try source.token(now: t0.addingTimeInterval(-5)) != renewed)
  }

  @Test("the key never appears in descriptions or errors")
  func neverPrinted() throws {
    let pem = team.key.pemRepresentation
    let body = pem.split(separator: "\n")[1]
    #expect(!String(describing: team.credentials).contains(body))
    #expect(!String(reflecting: team.credentials).contains(body))
    #expect(String(describing: team.credentials).contains("key <redacted>"))
  }

  @Test("Retry-After: Apple's UNIX milliseconds, or RFC seconds from a proxy; garbage ignored")
  func retryAfter() {
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    #expect(RetryPolicy.retryAfterDelay("1795000007500", now: now) == 7.5)
    #expect(RetryPolicy.retryAfterDelay("1794999999000", now: now) == 0)
    #expect(RetryPolicy.retryAfterDelay("3", now: now) == 3)
    #expect(RetryPolicy.retryAfterDelay("soon", now: now) == nil)
    #expect(RetryPolicy.retryAfterDelay(nil, now: now) == nil)
  }

  @Test("ids in the token and request bodies are JSON strings, whatever they hold")
  func idsAreQuoted() {
    #expect(BearerToken.jsonString("57246542-96fe-1a63-e053-0824d011072a") == #""57246542-96fe-1a63-e053-0824d011072a""#)
    #expect(BearerToken.jsonString("a\"b\\c/d\n\u{1}é") == #""a\"b\\c/d\n\u0001é""#)
  }

  @Test("a request body's dates are milliseconds; a date no Int64 holds is clamped, never a trap")
  func epochMilliseconds() {
    #expect(AppStoreClient.epochMilliseconds(Date(timeIntervalSince1970: 1_795_000_000.1234)) == 1_795_000_000_123)
    #expect(AppStoreClient.epochMilliseconds(Date(timeIntervalSince1970: -1.5)) == -1_500)
    #expect(AppStoreClient.epochMilliseconds(Date(timeIntervalSince1970: 1e300)) == .max)
    #expect(AppStoreClient.epochMilliseconds(Date(timeIntervalSince1970: -1e300)) == .min)
    #expect(AppStoreClient.epochMilliseconds(Date(timeIntervalSince1970: .nan)) == 0)
  }
}
