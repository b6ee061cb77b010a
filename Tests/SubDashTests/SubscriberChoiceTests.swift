import DashModel
import CoreValues
import Foundation
import Testing
@testable import DashRuntime
import SubscriberStorage

/// A support person has a Get All Subscription Statuses response holding two customers. The error
/// says "choose one with --original-transaction-id ID": `show` and the dashboard must take it.
@Suite struct SubscriberChoiceTests {
  let dir: String

  init() throws {
    dir = NSTemporaryDirectory() + "subdash-choice-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
  }

  /// Xcode-signed data is decoded and marked unverified, so a test can write its own.
  static func xcodeJWS(_ payload: String) -> String {
    func b64(_ s: String) -> String {
      Data(s.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
    }
    return b64(#"{"alg":"ES256","kid":"Apple_Xcode_Key"}"#) + "." + b64(payload) + ".AQID"
  }

  static func transaction(_ id: String, otid: String, product: String) -> String {
    #"{"transactionId":"\#(id)","originalTransactionId":"\#(otid)","productId":"\#(product)","subscriptionGroupIdentifier":"G1","purchaseDate":1700000000000,"expiresDate":1702592000000,"signedDate":1700000000000,"environment":"Xcode","type":"Auto-Renewable Subscription","bundleId":"com.example"}"#
  }

  /// Two subscribers in one response, as Apple's example has.
  func twoSubscribers() throws -> String {
    let path = dir + "/statuses.json"
    let body = #"{"environment":"Xcode","bundleId":"com.example","data":[{"subscriptionGroupIdentifier":"G1","lastTransactions":["#
      + #"{"status":1,"originalTransactionId":"111","signedTransactionInfo":"\#(Self.xcodeJWS(Self.transaction("11", otid: "111", product: "pro.monthly")))"},"#
      + #"{"status":2,"originalTransactionId":"222","signedTransactionInfo":"\#(Self.xcodeJWS(Self.transaction("22", otid: "222", product: "pro.yearly")))"}]}]}"#
    try body.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func run(_ args: [String]) throws -> CommandLineTests.Run { try CommandLineTests().run(args) }

  @Test func showTakesTheSubscriberTheErrorAsksFor() throws {
    let path = try twoSubscribers()
    let without = try run(["show", path, "--json"])
    #expect(without.status == 2)
    #expect(without.stderr.contains("choose one with --original-transaction-id ID"))

    let chosen = try run(["show", path, "--json", "--original-transaction-id", "222"])
    #expect(chosen.status == 0, "\(chosen.stderr)")
    #expect(chosen.stdout.contains(#""originalTransactionId":"222""#) || chosen.stdout.contains(#""originalTransactionId": "222""#))
    #expect(!chosen.stdout.contains("\"111\""))

    let text = try run(["show", path, "--original-transaction-id", "111"])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("pro.monthly"))
    #expect(!text.stdout.contains("pro.yearly"))

    let nobody = try run(["show", path, "--original-transaction-id", "333"])
    #expect(nobody.status == 2)
    #expect(nobody.stderr.contains("no input holds originalTransactionId 333; they hold 111, 222"))
  }

  /// On a state file (one subscriber) the option is a check that it is the customer asked about.
  @Test func showRefusesAStateFileOfAnotherSubscriber() throws {
    let example = DemoStateTests.repoRoot.appendingPathComponent("Examples/active.json").path
    let state = try StateFile.load(path: example)
    let held = try #require(state.subscriber.originalTransactionId)
    #expect(try run(["show", example, "--original-transaction-id", held]).status == 0)
    let other = try run(["show", example, "--original-transaction-id", "999"])
    #expect(other.status == 2)
    #expect(other.stderr.contains("holds originalTransactionId \(held), not 999"))
  }

  /// The dashboard (`subdash FILE`) parses it too: an unknown option would exit 64 before any
  /// terminal is needed; a wrong subscriber is refused with the import's words.
  @Test func theDashboardTakesItToo() throws {
    let path = try twoSubscribers()
    let nobody = try run([path, "--original-transaction-id", "333"])
    #expect(nobody.status == 2, "\(nobody.stderr)")
    #expect(nobody.stderr.contains("no input holds originalTransactionId 333"))
    let open = try run(["open", path, "--original-transaction-id", "333"])
    #expect(open.status == 2, "\(open.stderr)")
  }
}
