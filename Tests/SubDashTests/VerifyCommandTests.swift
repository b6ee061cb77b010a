import AppStoreSigning
import Foundation
import Testing
@testable import DashRuntime
@testable import SubDash

/// A support person runs `subdash verify` on what the backend logged: a notification body, an API
/// response with several signed fields, an Xcode file. One line per JWS, safe to print.
@Suite struct VerifyCommandTests {
  let ca: LocalCertificateAuthority
  let verifier: JWSVerifier
  let dir: String

  init() throws {
    ca = try LocalCertificateAuthority.create()
    verifier = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "ca/root.pem")])
    dir = NSTemporaryDirectory() + "verify-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
  }

  func file(_ name: String, _ text: String) throws -> String {
    let path = dir + "/" + name
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func transaction(_ id: String, environment: String = "Sandbox") throws -> String {
    try ca.sign(payloadJSON: Array(#"{"transactionId":"\#(id)","environment":"\#(environment)","signedDate":1700000000000}"#.utf8))
  }

  @Test func aNotificationBodyGetsOneLineThatNeverSaysAppleForALocalRoot() async throws {
    let body = try ca.sign(payloadJSON: Array(#"{"notificationType":"SUBSCRIBED","subtype":"RESUBSCRIBE","signedDate":1700000000000,"data":{"environment":"Sandbox","signedTransactionInfo":"\#(try transaction("7"))"}}"#.utf8))
    let path = try file("body.json", #"{"signedPayload": "\#(body)"}"#)
    let lines = await Verify.report(input: path, verifier: verifier, json: false)
    #expect(lines.map(\.text) == ["\(path): valid: locally signed notification SUBSCRIBED/RESUBSCRIBE (Sandbox), signed 2023-11-14T22:13:20Z by trusted root ca/root.pem (not Apple)"])
    #expect(lines.map(\.valid) == [true])
  }

  @Test func anAPIResponseGetsOneLinePerSignedFieldByJSONPath() async throws {
    let response = #"{"signedTransactions":["\#(try transaction("1"))","\#(try transaction("2"))*"],"revision":"r","hasMore":false,"data":[{"lastTransactions":[{"signedTransactionInfo":"not-a-jws"}]}]}"#
    let path = try file("history.json", response)
    let lines = await Verify.report(input: path, verifier: verifier, json: false)
    #expect(lines.map(\.text) == [
      "\(path) $.signedTransactions[0]: valid: locally signed transaction (Sandbox), signed 2023-11-14T22:13:20Z by trusted root ca/root.pem (not Apple)",
      "\(path) $.signedTransactions[1]: invalid: signature is not base64url",
      "\(path) $.data[0].lastTransactions[0].signedTransactionInfo: invalid: not a compact JWS: 1 segment separated by '.', need 3",
    ])
    #expect(lines.map(\.valid) == [true, false, false])
  }

  @Test func xcodeDataIsReportedUnverifiedAndDoesNotCountAsValid() async throws {
    let path = try file("xcode.jws", try transaction("0", environment: "Xcode"))
    let lines = await Verify.report(input: path, verifier: verifier, json: false)
    #expect(lines.map(\.text) == ["\(path): unverified: Xcode-signed transaction (Xcode), signed 2023-11-14T22:13:20Z; signature not checked (Xcode data is never Apple's)"])
    #expect(lines.map(\.valid) == [false])
  }

  @Test func controlCharactersFromTheFileAreShownNotObeyed() async throws {
    let path = try file("evil.jws", try transaction("1", environment: #"Sand\u001b[2Jbox"#))
    let text = try #require(await Verify.report(input: path, verifier: verifier, json: false).first?.text)
    #expect(!text.contains("\u{1B}"))
    #expect(text.contains("(Sand␛[2Jbox)"))
  }

  @Test func jsonOutputCarriesThePayloadAsSigned() async throws {
    let jws = try ca.sign(payloadJSON: Array(#"{"transactionId":"5","environment":"Sandbox","signedDate":1700000000000,"price":9990,"newField":[1.50]}"#.utf8))
    let path = try file("t.jws", jws + "\n")
    let line = try #require(await Verify.report(input: path, verifier: verifier, json: true).first)
    #expect(line.text.contains(#""payload":{"transactionId":"5","environment":"Sandbox","signedDate":1700000000000,"price":9990,"newField":[1.50]}"#))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.text.utf8)) as? [String: Any])
    #expect(object["verdict"] as? String == "valid")
    #expect(object["signedBy"] as? String == "ca/root.pem")
    #expect(object["kind"] as? String == "transaction")
  }

  @Test func unreadableOrEmptyInputsSayWhy() async throws {
    let missing = dir + "/nope.jws"
    #expect(await Verify.report(input: missing, verifier: verifier, json: false).map(\.text) == ["\(missing): invalid: cannot read the input"])
    let empty = try file("empty.json", "  \n")
    #expect(await Verify.report(input: empty, verifier: verifier, json: false).map(\.text) == ["\(empty): invalid: input is empty"])
    let plain = try file("plain.json", #"{"hello": "world"}"#)
    #expect(await Verify.report(input: plain, verifier: verifier, json: false).map(\.text)
      == [#"\#(plain): invalid: no signed* field found: expected a compact JWS, {"signedPayload": …} or an App Store Server API response"#])
  }
}
