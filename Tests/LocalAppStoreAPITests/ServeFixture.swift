import AppStoreSigning
import Crypto
import DashModel
import CoreValues
import Foundation
@testable import LocalAppStoreAPI

/// `subdash serve` in-process: a directory holding Examples/active.json as its subscriber's file
/// (Sandbox, 5 transactions), the local CA, and a team key whose tokens the server accepts.
struct ServeFixture {
  static let ca = try! LocalCertificateAuthority.create()
  static let id = "2000000871234560"
  let directory: String
  let key = P256.Signing.PrivateKey()
  let api: LocalAppStoreAPI
  /// The server's wall clock; tokens are made at it.
  let now: Date
  var path: String { directory + "/\(Self.id).json" }

  /// The app the server answers for (--bundle-id): its tokens carry it as `bid`.
  let bundleID: String

  init(pageSize: Int = 20, now: Date = Date(), bundleID: String = "com.example.birdwatch") throws {
    self.now = now
    self.bundleID = bundleID
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-serve-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: Self.examples + "/active.json", toPath: directory + "/\(Self.id).json")
    let check = BearerCheck(publicKey: key.publicKey, keyID: "KEY1", issuerID: "issuer-1", bundleID: bundleID)
    api = LocalAppStoreAPI(directory: directory, settings: .init(check: check, pageSize: pageSize), authority: Self.ca, sender: nil,
                           wallClock: { now })
  }

  func remove() { try? FileManager.default.removeItem(atPath: directory) }

  static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Examples").path

  /// Another subscriber in the directory: Examples/NAME.json as NAME.json.
  func add(example name: String) throws {
    try FileManager.default.copyItem(atPath: Self.examples + "/\(name).json", toPath: directory + "/\(name).json")
  }

  /// A bearer token as a backend makes one; `claims` overrides or removes (nil) any claim.
  func token(kid: String = "KEY1", signer: P256.Signing.PrivateKey? = nil, _ claims: [String: Any?] = [:]) -> String {
    let now = Int(self.now.timeIntervalSince1970)
    var c: [String: Any] = ["iss": "issuer-1", "iat": now, "exp": now + 1200, "aud": "appstoreconnect-v1", "bid": bundleID]
    for (k, v) in claims { c[k] = v }
    let header = try! JSONSerialization.data(withJSONObject: ["alg": "ES256", "kid": kid, "typ": "JWT"])
    let body = try! JSONSerialization.data(withJSONObject: c)
    let input = Base64URL.encode(header) + "." + Base64URL.encode(body)
    let signature = try! (signer ?? key).signature(for: Array(input.utf8))
    return "Bearer " + input + "." + Base64URL.encode(signature.rawRepresentation)
  }

  func get(_ path: String, _ query: [(String, String)] = [], authorization: String? = nil) async -> LocalAppStoreAPI.Response {
    await api.respond(.init(method: "GET", path: path, query: query, authorization: authorization ?? token()))
  }

  func send(_ method: String, _ path: String, json: [String: Any]) async -> LocalAppStoreAPI.Response {
    let body = Array(try! JSONSerialization.data(withJSONObject: json))
    return await api.respond(.init(method: method, path: path, authorization: token(), body: body))
  }

  static func object(_ r: LocalAppStoreAPI.Response) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any]) ?? [:]
  }

  /// The decoded payload of a JWS the CA signed, after checking the signature chains to its root.
  static func verified(_ jws: String) async throws -> [String: Any] {
    let verifier = try JWSVerifier(extraRoots: [TrustedRoot(fileContents: ca.rootDER, source: "test CA")], trustApple: false)
    let v = try await verifier.verify(jws)
    return try JSONSerialization.jsonObject(with: Data(v.payloadJSON)) as! [String: Any]
  }
}
