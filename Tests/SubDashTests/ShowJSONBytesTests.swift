import DashModel
import Foundation
import Testing

@testable import SubDash
import CoreValues
import SubscriberStorage

/// `subdash show --json` (the built binary) writes its document as bytes, the timeline straight
/// from the story: the output must be exactly what `JSONWriter` writes for the same values (the
/// route it took before), and its summary and timeline the story derived in process.
@Suite struct ShowJSONBytesTests {
  static let now = "2026-11-26T05:00:00.250Z"

  func expectSameAsValues(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let r = try CommandLineTests().run(["show", "--json", "--now", Self.now, path])
    #expect(r.status == 0, "\(path): \(r.stderr)", sourceLocation: sourceLocation)
    let bytes = Array(r.stdout.utf8)
    let document = try JSONParser.parse(bytes)
    #expect(JSONWriter.write(document) == bytes, "\(path): not the bytes JSONWriter writes for the same document", sourceLocation: sourceLocation)
    let state = try StateFile.load(path: path)
    let now = try Format.parseDate(Self.now)
    let story = CustomerStory.derive(CustomerHistory.load(state, statePath: path), state: state, now: now)
    let o = try #require(document.objectValue)
    #expect(o["timeline"] == story.timelineJSON, "\(path): timeline", sourceLocation: sourceLocation)
    #expect(o["summary"] == story.summaryJSON, "\(path): summary", sourceLocation: sourceLocation)
    #expect(o["timelineMarks"] == story.timelineMarksJSON, "\(path): timelineMarks", sourceLocation: sourceLocation)
    #expect(bytes.last == 0x0A)
  }

  @Test func shippedExamples() throws {
    let dir = DemoStateTests.repoRoot.appendingPathComponent("Examples").path
    for name in ["refunded", "grace-period", "billing-retry", "commitment", "family-shared", "offer-in-effect", "price-increase", "expired-voluntary"] {
      try expectSameAsValues(dir + "/\(name).json")
    }
  }

  /// A long timeline is streamed in chunks by two threads taking turns: what reaches the output,
  /// in the order it arrives, is the document written in one go; small chunks make many turns.
  @Test func theTimelineStreamedInChunksIsTheTimelineWrittenWhole() throws {
    let path = DemoStateTests.repoRoot.appendingPathComponent("Examples/refunded.json").path
    let state = try StateFile.load(path: path)
    let story = CustomerStory.derive(CustomerHistory.load(state, statePath: path), state: state, now: try Format.parseDate("2031-01-01T00:00:00.5Z"))
    #expect(story.timeline.periods.count >= 3)
    for (indent, chunk) in [(0, 1), (2, 2), (6, 1), (2, 1000)] {
      var whole: [UInt8] = Array("head".utf8)
      story.writeTimelineJSON(into: &whole, indent: indent)
      whole += Array("tail".utf8)
      let output = Output()
      var head = Array("head".utf8)
      let failure = ShowTimelineStream.stream(story, head: &head, indent: indent, chunkPeriods: chunk) { output.append($0) }
      output.append(head + Array("tail".utf8))
      #expect(failure == nil)
      #expect(String(decoding: output.bytes, as: UTF8.self) == String(decoding: whole, as: UTF8.self), "indent \(indent), chunks of \(chunk)")
    }
  }

  /// A write that fails (a full disk) stops the stream: its error is returned, and nothing is
  /// written after it, whichever thread's turn came next.
  @Test func aFailedWriteEndsTheStream() throws {
    let path = DemoStateTests.repoRoot.appendingPathComponent("Examples/refunded.json").path
    let state = try StateFile.load(path: path)
    let story = CustomerStory.derive(CustomerHistory.load(state, statePath: path), state: state, now: try Format.parseDate("2031-01-01T00:00:00.5Z"))
    let chunks = story.timeline.periods.count
    #expect(chunks >= 3)
    for failing in 0...chunks {
      let output = Output(failingAt: failing)
      var head = Array("head".utf8)
      let failure = ShowTimelineStream.stream(story, head: &head, indent: 2, chunkPeriods: 1) { output.append($0) }
      #expect(failure == ENOSPC, "failing at write \(failing)")
      #expect(output.calls == failing + 1, "failing at write \(failing): no write after the failed one")
    }
  }

  /// What the stream wrote, call by call (calls come one at a time, from either thread).
  final class Output: @unchecked Sendable {
    private let lock = NSLock()
    private var written: [UInt8] = []
    private var count = 0
    private let failingAt: Int?
    init(failingAt: Int? = nil) { self.failingAt = failingAt }
    var bytes: [UInt8] { lock.withLock { written } }
    var calls: Int { lock.withLock { count } }
    func append(_ b: [UInt8]) -> Int32? {
      lock.withLock {
        count += 1
        if count - 1 == failingAt { return ENOSPC }
        written += b
        return nil
      }
    }
  }

  /// 400 five-minute renewals with a refund and an extension, as `SubDashBench generate` writes
  /// its files (one subscriber, inline history and notifications, a catalog file beside it).
  @Test func aLongHistory() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("show-bytes-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let catalog = DemoStateTests.repoRoot.appendingPathComponent("Examples/scenarios/pass.storekit")
    try FileManager.default.copyItem(at: catalog, to: dir.appendingPathComponent("pass.storekit"))
    let start: Int64 = 1_767_983_534_000
    var transactions: [String] = [], notifications: [String] = []
    for k in 0..<400 {
      let purchase = start + Int64(k) * 300_000
      var t = #""originalTransactionId": "2000000000000000", "transactionId": "\#(2_000_000_000_000_000 + k)", "productId": "pass.premium.monthly", "purchaseDate": \#(purchase), "originalPurchaseDate": \#(start), "expiresDate": \#(purchase + 300_000), "inAppOwnershipType": "PURCHASED", "price": \#(k < 200 ? 9990 : 10990), "currency": "USD""#
      if k == 300 { t += #", "revocationDate": \#(purchase + 100_000), "revocationType": "REFUND_FULL""# }
      transactions.append("{\(t)}")
      // Extended by a minute: the same transaction again with a later expiry.
      if k == 123 { transactions.append("{\(t.replacingOccurrences(of: #""expiresDate": \#(purchase + 300_000)"#, with: #""expiresDate": \#(purchase + 360_000)"#))}") }
      notifications.append(#"{"notificationType": "\#(k == 0 ? "SUBSCRIBED" : "DID_RENEW")", "signedDate": \#(purchase), "productId": "pass.premium.monthly", "summary": "renewal \#(k)"}"#)
    }
    let text = #"{"format": "subdash-state/1", "catalogFile": "pass.storekit", "subscriber": {"latestTransaction": \#(transactions.last ?? "null"), "transactions": [\#(transactions.joined(separator: ","))], "notifications": [\#(notifications.joined(separator: ","))]}}"#
    let path = dir.appendingPathComponent("history.json").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    try expectSameAsValues(path)
  }

  /// `show --json F > out.json` on a full disk: exit 1 and one line saying so, not 0 and a
  /// document cut short.
  @Test func aDocumentThatCannotBeWrittenIsAnErrorNotSuccess() throws {
    let path = DemoStateTests.repoRoot.appendingPathComponent("Examples/refunded.json").path
    guard let full = FileHandle(forWritingAtPath: "/dev/full") else { return }  // not on this system
    let p = Process()
    p.executableURL = CommandLineTests.binary
    p.arguments = ["show", "--json", path]
    let err = Pipe()
    p.standardOutput = full
    p.standardError = err
    p.standardInput = FileHandle.nullDevice
    try p.run()
    let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    #expect(p.terminationStatus == 1)
    #expect(text == "subdash: cannot write the JSON to standard output: No space left on device\n")
  }
}
