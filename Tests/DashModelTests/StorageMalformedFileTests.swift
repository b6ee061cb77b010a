import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// A damaged or wrong file, and what the one-line error must say about it.
struct MalformedFile: Sendable, CustomTestStringConvertible {
  var name: String
  var text: String
  /// Other files in the same directory (a catalog, another state file).
  var besides: [String: String] = [:]
  /// The exact start of the error ("state.json:3:21: $.subscriber…: ").
  var prefix: String
  /// A phrase the message must contain.
  var says: String
  var testDescription: String { name }
}

/// Files support staff get sent are sometimes broken. Each must give one clear line naming the
/// file and where in it, and a failed save must leave every byte as it was.
@Suite("Storage: malformed files")
struct StorageMalformedFileTests {
  static let catalog = #"{ "subscriptionGroups": [] }"#
  static func subscription(_ field: String) -> String {
    """
    { "catalog": { "subscriptionGroups": [ { "id": "G", "subscriptions": [
      { "productID": "p", "groupNumber": 1, "recurringSubscriptionPeriod": "P1M", "displayPrice": "4.99",
        \(field) } ] } ] },
      "subscriber": {} }
    """
  }

  static let cases: [MalformedFile] = [
    MalformedFile(name: "truncated", text: "{\n  \"catalog\": {},\n  \"subscriber\": { \"latestTransaction\": {\n",
                  prefix: "state.json:4:1: ", says: "the JSON is truncated"),
    MalformedFile(name: "trailing comma", text: "{\n  \"catalog\": {},\n  \"subscriber\": {},\n}\n",
                  prefix: "state.json:4:1: ", says: "trailing comma before '}'"),
    MalformedFile(name: "duplicate key", text: "{\n  \"catalog\": {},\n  \"subscriber\": {},\n  \"subscriber\": {}\n}",
                  prefix: "state.json:4:3: ", says: "duplicate key \"subscriber\""),
    MalformedFile(name: "empty file", text: "", prefix: "state.json:1:1: ", says: "the file is empty"),
    MalformedFile(name: "top level is an array", text: "[1, 2]", prefix: "state.json:1:1: $: ", says: "expected an object, found an array"),
    MalformedFile(name: "control character in a string", text: "{ \"catalog\": {}, \"subscriber\": { \"x\": \"a\u{01}b\" } }",
                  prefix: "state.json:1:41: ", says: "control character (byte 0x1) inside a string"),
    MalformedFile(name: "autoRenewStatus as a string",
                  text: "{ \"catalog\": {},\n  \"subscriber\": {\n    \"renewalInfo\": { \"autoRenewStatus\": \"1\" } } }",
                  prefix: "state.json:3:41: $.subscriber.renewalInfo.autoRenewStatus: ", says: "expected an integer, found a string"),
    MalformedFile(name: "fractional price",
                  text: "{ \"catalog\": {},\n  \"subscriber\": {\n    \"latestTransaction\": { \"price\": 10.5 } } }",
                  prefix: "state.json:3:37: $.subscriber.latestTransaction.price: ", says: "expected an integer, found 10.5"),
    MalformedFile(name: "history is not an array", text: "{ \"catalog\": {}, \"subscriber\": { \"transactions\": {} } }",
                  prefix: "state.json:1:50: $.subscriber.transactions: ", says: "expected an array, found an object"),
    MalformedFile(name: "history entry is not an object",
                  text: "{ \"catalog\": {}, \"subscriber\": { \"transactions\": [ {}, \"t2\" ] } }",
                  prefix: "state.json:1:56: $.subscriber.transactions[1]: ", says: "expected an object, found a string"),
    MalformedFile(name: "null subscriber", text: "{ \"catalog\": {},\n  \"subscriber\": null }",
                  prefix: "state.json:2:17: $.subscriber: ", says: "required object is missing"),
    MalformedFile(name: "no catalog", text: "{ \"subscriber\": {} }",
                  prefix: "state.json:1:1: $.catalog: ", says: "an inline \"catalog\" object or a \"catalogFile\" path"),
    MalformedFile(name: "catalog and catalogFile", text: "{ \"catalog\": {}, \"catalogFile\": \"a.storekit\", \"subscriber\": {} }",
                  prefix: "state.json:1:33: $.catalogFile: ", says: "not both"),
    MalformedFile(name: "catalog file missing", text: "{ \"catalogFile\": \"missing.storekit\", \"subscriber\": {} }",
                  prefix: "missing.storekit: ", says: "catalog file not found (named by state.json at $.catalogFile)"),
    MalformedFile(name: "catalog file is the state file", text: "{ \"catalogFile\": \"state.json\", \"subscriber\": {} }",
                  prefix: "state.json:1:18: $.catalogFile: ", says: "the catalog file is the state file itself"),
    MalformedFile(name: "catalog file is another state file", text: "{ \"catalogFile\": \"other.json\", \"subscriber\": {} }",
                  besides: ["other.json": "{ \"catalog\": {}, \"subscriber\": {} }"],
                  prefix: "other.json:1:1: $: ", says: "this is a SubDash state file, not a catalog (.storekit) file"),
    MalformedFile(name: "broken catalog file", text: "{ \"catalogFile\": \"Store.storekit\", \"subscriber\": {} }",
                  besides: ["Store.storekit": "{\n  \"subscriptionGroups\": [ { \"id\": 7 } ]\n}"],
                  prefix: "Store.storekit:2:35: $.subscriptionGroups[0].id: ", says: "expected a string, found a number"),
    MalformedFile(name: "bad price string", text: subscription(#""localizations": [], "x": 0"#).replacingOccurrences(of: "\"4.99\"", with: "\"4,99\""),
                  prefix: "state.json:2:95: $.catalog.subscriptionGroups[0].subscriptions[0].displayPrice: ", says: "\"4,99\" is not a price such as 4.99"),
    MalformedFile(name: "bad period", text: subscription(#""x": 0"#).replacingOccurrences(of: "\"P1M\"", with: "\"P1Q\""),
                  prefix: "state.json:2:72: $.catalog.subscriptionGroups[0].subscriptions[0].recurringSubscriptionPeriod: ",
                  says: "\"P1Q\" is not an ISO 8601 period such as P1W, P1M or P1Y"),
    MalformedFile(name: "unknown payment mode",
                  text: subscription(#""introductoryOffer": { "paymentMode": "trial", "subscriptionPeriod": "P1W" }"#),
                  prefix: "state.json:3:43: $.catalog.subscriptionGroups[0].subscriptions[0].introductoryOffer.paymentMode: ",
                  says: "unknown payment mode \"trial\" (expected free, payAsYouGo or payUpFront)"),
    MalformedFile(name: "missing level", text: subscription(#""x": 0"#).replacingOccurrences(of: "\"groupNumber\": 1, ", with: ""),
                  prefix: "state.json:2:3: $.catalog.subscriptionGroups[0].subscriptions[0].groupNumber: ", says: "required integer is missing"),
    MalformedFile(name: "negative committedBytes",
                  text: "{ \"catalog\": {}, \"subscriber\": {},\n  \"journal\": { \"file\": \"state.journal.jsonl\", \"committedBytes\": -5 } }",
                  prefix: "state.json:2:65: $.journal.committedBytes: ", says: "must not be negative"),
    MalformedFile(name: "journal outside the directory",
                  text: "{ \"catalog\": {}, \"subscriber\": {}, \"journal\": { \"file\": \"../elsewhere.jsonl\" } }",
                  prefix: "state.json:1:57: $.journal.file: ", says: "the journal must be a plain file name beside the state file"),
    MalformedFile(name: "another tool's format", text: "{ \"format\": \"revenuecat-customer/1\", \"catalog\": {}, \"subscriber\": {} }",
                  prefix: "state.json:1:13: $.format: ", says: "\"revenuecat-customer/1\" is not a SubDash state format (expected subdash-state/1)"),
    MalformedFile(name: "a .storekit file opened as the state file", text: Fixture.text("storekit/backyard-birds.storekit"),
                  prefix: "state.json:1:1: $: ", says: "this is a .storekit catalog, not a SubDash state file"),
    MalformedFile(name: "date in microseconds",
                  text: "{ \"catalog\": {}, \"subscriber\": { \"latestTransaction\": { \"expiresDate\": 1698149000000000 } } }",
                  prefix: "state.json:1:72: $.subscriber.latestTransaction.expiresDate: ", says: "is outside years 1900–3000"),
    MalformedFile(name: "unknown offer code type",
                  text: "{ \"catalog\": {}, \"subscriber\": {},\n  \"offerCodes\": [ { \"type\": \"bulk\", \"productId\": \"p\", \"offerReference\": \"r\" } ] }",
                  prefix: "state.json:2:29: $.offerCodes[0].type: ", says: "expected \"custom\" or \"oneTime\""),
    MalformedFile(name: "deep nesting", text: "{ \"catalog\": {}, \"subscriber\": {}, \"x\": " + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + " }",
                  prefix: "state.json:1:296: ", says: "nesting deeper than 256 levels"),
  ]

  @Test(arguments: cases)
  func aMalformedFileGivesOneLocatedLineAndIsNeverWritten(_ c: MalformedFile) throws {
    let dir = TempDir()
    let path = dir.write("state.json", c.text)
    for (name, text) in c.besides { dir.write(name, text) }
    try expectRejected(dir, path: path, prefix: c.prefix, says: c.says)
  }

  @Test func invalidUtf8() throws {
    let dir = TempDir()
    let path = dir.write("state.json", Array("{ \"catalog\": {}, \"subscriber\": { \"x\": \"".utf8) + [0xC3, 0x28] + Array("\" } }".utf8))
    try expectRejected(dir, path: path, prefix: "state.json:1:39: ", says: "invalid UTF-8 inside a string")
  }

  @Test func catalogFileEscapingThroughDotDot() throws {
    let outer = TempDir()
    outer.copyFixture("storekit/backyard-birds.storekit")
    let inner = outer.url.appendingPathComponent("case-1234")
    try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: false)
    let path = inner.appendingPathComponent("state.json").path
    _ = FileManager.default.createFile(atPath: path, contents: Data(#"{ "catalogFile": "../backyard-birds.storekit", "subscriber": {} }"#.utf8))
    let before = Array(FileManager.default.contents(atPath: path)!)
    let e = try #require(loadError(path))
    #expect(e.description == #"state.json:1:18: $.catalogFile: "../backyard-birds.storekit" resolves outside the state file's directory; copy the catalog beside the state file"#)
    #expect(throws: StateFileError.self) { try update(path, .setAutoRenew(true), at: Instant(ms: 0)) }
    #expect(Array(FileManager.default.contents(atPath: path)!) == before)
  }

  @Test func catalogFileEscapingThroughASymlink() throws {
    let outside = TempDir()
    let target = outside.copyFixture("storekit/backyard-birds.storekit")
    let dir = TempDir()
    try FileManager.default.createSymbolicLink(atPath: dir.file("Store.storekit"), withDestinationPath: target)
    let path = dir.write("state.json", #"{ "catalogFile": "Store.storekit", "subscriber": {} }"#)
    try expectRejected(dir, path: path, prefix: "state.json:1:18: $.catalogFile: ", says: "resolves outside the state file's directory")
    // A symlink that stays inside the directory is fine.
    let inside = dir.copyFixture("storekit/backyard-birds.storekit", as: "real.storekit")
    try FileManager.default.removeItem(atPath: dir.file("Store.storekit"))
    try FileManager.default.createSymbolicLink(atPath: dir.file("Store.storekit"), withDestinationPath: inside)
    #expect(try StateFile.load(path: path).catalog.groups.count == 1)
  }

  @Test func aFileLargerThanTheLimitIsRefusedBeforeReading() throws {
    let dir = TempDir()
    let path = dir.write("state.json", "{")
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: UInt64(StateFile.maxDocumentBytes) + 1)  // sparse: no disk used
    try handle.close()
    let e = try #require(loadError(path))
    #expect(e.description == "state.json: cannot read: file is \(StateFile.maxDocumentBytes + 1) bytes; the limit is \(StateFile.maxDocumentBytes) bytes")
  }

  @Test func aDirectoryInsteadOfAFile() throws {
    let dir = TempDir()
    try FileManager.default.createDirectory(atPath: dir.file("state.json"), withIntermediateDirectories: false)
    #expect(loadError(dir.file("state.json"))?.description == "state.json: cannot read: is a directory, not a file")
  }

  // MARK: - Helpers

  func loadError(_ path: String) -> StateFileError? {
    do {
      _ = try StateFile.load(path: path)
      return nil
    } catch {
      return error
    }
  }

  /// The load error starts with `prefix` and contains `says`, is one line, and an update attempt
  /// leaves the directory exactly as it was (same bytes, no journal, no temporary file).
  func expectRejected(_ dir: TempDir, path: String, prefix: String, says: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    // The directory's lock file (`.subdash.lock`) is the writers', not a change: it may be made by
    // the attempt, or be there from an earlier one.
    let before = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted().filter { !$0.hasPrefix(".subdash.lock") }.map { ($0, dir.bytes($0)) }
    let e = try #require(loadError(path), "the file loaded", sourceLocation: sourceLocation)
    let text = e.description
    #expect(text.hasPrefix(prefix), "\(text)", sourceLocation: sourceLocation)
    #expect(text.contains(says), "\(text)", sourceLocation: sourceLocation)
    #expect(!text.contains("\n"), sourceLocation: sourceLocation)
    #expect(throws: StateFileError.self, sourceLocation: sourceLocation) {
      try StateFile.update(path: path) { (state) throws(StateFileError) -> Change in
        Change(state: state, notifications: [NotificationRecord(type: .test, uuid: nil, signedDate: nil, status: nil)], message: "")
      }
    }
    let after = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted().filter { !$0.hasPrefix(".subdash.lock") }.map { ($0, dir.bytes($0)) }
    #expect(after.map(\.0) == before.map(\.0), sourceLocation: sourceLocation)
    #expect(after.map(\.1) == before.map(\.1), sourceLocation: sourceLocation)
  }
}
