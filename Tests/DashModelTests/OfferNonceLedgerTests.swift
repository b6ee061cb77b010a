import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage
@testable import RetentionMessaging

/// Apple's promotional-offer nonce is "a one-time-use UUID antireplay value": the App Store shows an
/// offer whose nonce it accepted before no second time, for as long as a signature carrying it
/// could still verify.
@Suite("A promotional offer's nonce is accepted once")
struct OfferNonceLedgerTests {
  let nonce = "4c5d2d47-1f0a-4d4e-9d7a-0a4a3c1f2b11"
  let day = Span(ms: 24 * 3_600_000 + 60_000)
  let noon = Instant(ms: 1_795_000_000_000)

  @Test("A nonce is fresh once; the same nonce again, in any case, is refused with when and for whom it was spent")
  func spentOnce() {
    var ledger = OfferNonceLedger()
    #expect(ledger.spend(nonce, originalTransactionId: "2000000871234560", at: noon, window: day) == .fresh)
    guard case .reused(let first) = ledger.spend(nonce.uppercased(), originalTransactionId: "2000000999999999", at: noon + Span(ms: 5_000), window: day) else {
      Issue.record("a spent nonce was accepted again")
      return
    }
    #expect(first.spentAt == noon && first.originalTransactionId == "2000000871234560")
    #expect(ledger.spend("9b0e8a8e-5f1c-4c1e-8f7e-3c3a0d0b2a11", originalTransactionId: nil, at: noon, window: day) == .fresh)
  }

  @Test("A nonce is remembered for exactly the window: refused at its last millisecond, fresh 1 ms later")
  func windowBoundary() {
    var ledger = OfferNonceLedger()
    _ = ledger.spend(nonce, originalTransactionId: nil, at: noon, window: day)
    var atEdge = ledger
    #expect(atEdge.spend(nonce, originalTransactionId: nil, at: noon + day, window: day) != .fresh)
    var past = ledger
    #expect(past.spend(nonce, originalTransactionId: nil, at: noon + day + Span(ms: 1), window: day) == .fresh)
    #expect(past.entries.count == 1)
  }

  @Test("The file's lines read back as written; a line a crash cut short is not a line; a damaged one is named by file and line")
  func parsing() throws {
    var ledger = OfferNonceLedger()
    _ = ledger.spend(nonce, originalTransactionId: "2000000871234560", at: noon, window: day)
    let again = try OfferNonceLedger.parse(ledger.bytes, file: "n.jsonl")
    #expect(again == ledger)
    let torn = try OfferNonceLedger.parse(ledger.bytes + Array(#"{"nonce":"9b0e"#.utf8), file: "n.jsonl")
    #expect(torn.entries.count == 1)
    let damaged = ledger.bytes + Array("{\"nonce\":\"x\",\"spentAt\":\"soon\"}\n".utf8)
    #expect(throws: OfferNonceLedger.Failure("n.jsonl:2: spentAt is missing or not a time in milliseconds")) {
      try OfferNonceLedger.parse(damaged, file: "n.jsonl")
    }
    #expect(throws: OfferNonceLedger.Failure("n.jsonl:1: not a JSON object")) { try OfferNonceLedger.parse(Array("[1]\n".utf8), file: "n.jsonl") }
  }

  @Test("In the directory: spent once across calls, appended as a private file, the same answer refused the second time")
  func fileSpends() throws {
    let dir = TempDir()
    let path = OfferNonceLedger.path(besideStateFile: dir.file("customer.json"))
    #expect(PathName.fileName(of: path) == ".promotional-offer-nonces.jsonl")
    #expect(try OfferNonceLedger.spend(nonce, originalTransactionId: "1", at: noon, window: day, path: path) == .fresh)
    #expect(try OfferNonceLedger.spend(nonce, originalTransactionId: "2", at: noon + Span(ms: 1), window: day, path: path) != .fresh)
    #expect(try OfferNonceLedger.spend("9b0e8a8e-5f1c-4c1e-8f7e-3c3a0d0b2a11", originalTransactionId: "2", at: noon, window: day, path: path) == .fresh)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    #expect(dir.text(".promotional-offer-nonces.jsonl").split(separator: "\n").count == 2)
  }

  @Test("A line a crash cut short is dropped before the next append; a damaged or group-writable file is refused and left as it was")
  func fileDamage() throws {
    let dir = TempDir()
    let path = dir.file(OfferNonceLedger.fileName)
    let kept = "{\"nonce\":\"\(nonce)\",\"spentAt\":\(Int64(noon.ms)),\"note\":\"a field a later version wrote\"}\n"
    dir.write(OfferNonceLedger.fileName, kept + #"{"nonce":"9b0e"#)
    chmod(path, 0o600)
    #expect(try OfferNonceLedger.spend("9b0e8a8e-5f1c-4c1e-8f7e-3c3a0d0b2a11", originalTransactionId: nil, at: noon, window: day, path: path) == .fresh)
    let lines = dir.text(OfferNonceLedger.fileName).split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 3 && lines[0] + "\n" == kept && lines[1].hasPrefix("{\"nonce\":\"9b0e8a8e") && lines[2].isEmpty)

    let damaged = Array((kept + "not json\n").utf8)
    dir.write(OfferNonceLedger.fileName, damaged)
    #expect(throws: OfferNonceLedger.Failure("\(path):2: not a JSON object")) {
      try OfferNonceLedger.spend("11111111-1111-4111-8111-111111111111", originalTransactionId: nil, at: noon, window: day, path: path)
    }
    #expect(dir.bytes(OfferNonceLedger.fileName) == damaged)

    dir.write(OfferNonceLedger.fileName, kept)
    chmod(path, 0o666)
    let open = #expect(throws: OfferNonceLedger.Failure.self) {
      try OfferNonceLedger.spend("11111111-1111-4111-8111-111111111111", originalTransactionId: nil, at: noon, window: day, path: path)
    }
    #expect(open?.description.contains("writable by group or others (mode 666)") == true)
    #expect(dir.text(OfferNonceLedger.fileName) == kept)
  }

  @Test("A symbolic link, a named pipe or a directory at the record's name is refused in one line, and nothing is written through it")
  func plantedFiles() throws {
    let dir = TempDir()
    let path = dir.file(OfferNonceLedger.fileName)
    let target = dir.write("elsewhere.txt", "someone else's file\n")
    symlink(target, path)
    let linked = #expect(throws: OfferNonceLedger.Failure.self) {
      try OfferNonceLedger.spend(nonce, originalTransactionId: nil, at: noon, window: day, path: path)
    }
    #expect(linked?.description.contains("symbolic link") == true)
    #expect(dir.text("elsewhere.txt") == "someone else's file\n")
    unlink(path)
    mkfifo(path, 0o600)
    let pipe = #expect(throws: OfferNonceLedger.Failure.self) {
      try OfferNonceLedger.spend(nonce, originalTransactionId: nil, at: noon, window: day, path: path)
    }
    #expect(pipe?.description.contains("named pipe") == true)
    unlink(path)
    mkdir(path, 0o700)
    #expect(throws: OfferNonceLedger.Failure.self) {
      try OfferNonceLedger.spend(nonce, originalTransactionId: nil, at: noon, window: day, path: path)
    }
    for failure in [linked, pipe].compactMap({ $0 }) { #expect(!failure.description.contains("\n")) }
  }

  // Only root can give a file to another user; CI runs as root.
  @Test("Another user's file at the record's name is refused and left as it was", .enabled(if: geteuid() == 0, "needs root to chown"))
  func anotherUsersFile() throws {
    let dir = TempDir()
    let path = dir.file(OfferNonceLedger.fileName)
    let kept = "{\"nonce\":\"\(nonce)\",\"spentAt\":\(Int64(noon.ms))}\n"
    dir.write(OfferNonceLedger.fileName, kept)
    chmod(path, 0o600)
    #expect(chown(path, 65534, 65534) == 0)
    let refused = #expect(throws: OfferNonceLedger.Failure.self) {
      try OfferNonceLedger.spend("11111111-1111-4111-8111-111111111111", originalTransactionId: nil, at: noon, window: day, path: path)
    }
    #expect(refused?.description == "\(path): belongs to another user (uid 65534); the record must be your own file")
    #expect(dir.text(OfferNonceLedger.fileName) == kept)
  }

  @Test("Once as many lines are past the window as within it, the file is rewritten with the live ones, their unknown fields kept")
  func forgetting() throws {
    let dir = TempDir()
    let path = dir.file(OfferNonceLedger.fileName)
    var text = ""
    for i in 0..<OfferNonceLedger.rewriteAfter {
      text += "{\"nonce\":\"00000000-0000-4000-8000-\(String(format: "%012d", i))\",\"spentAt\":\(Int64(noon.ms))}\n"
    }
    let live = "{\"nonce\":\"\(nonce)\",\"spentAt\":\(Int64((noon + day).ms)),\"note\":\"kept\"}\n"
    dir.write(OfferNonceLedger.fileName, text + live)
    chmod(path, 0o600)
    let later = noon + day + Span(ms: 1)
    #expect(try OfferNonceLedger.spend("9b0e8a8e-5f1c-4c1e-8f7e-3c3a0d0b2a11", originalTransactionId: nil, at: later, window: day, path: path) == .fresh)
    let lines = dir.text(OfferNonceLedger.fileName).split(separator: "\n")
    #expect(lines.count == 2 && lines[0] + "\n" == live)
    #expect(try OfferNonceLedger.spend(nonce, originalTransactionId: nil, at: later, window: day, path: path) != .fresh)
  }

  @Test("Eight writers spending one nonce at the same moment: exactly one is accepted")
  func concurrentSpends() {
    let dir = TempDir()
    let path = dir.file(OfferNonceLedger.fileName)
    let fresh = Counter()
    DispatchQueue.concurrentPerform(iterations: 8) { i in
      if (try? OfferNonceLedger.spend(nonce, originalTransactionId: "\(i)", at: noon, window: day, path: path)) == .fresh { fresh.add() }
    }
    #expect(fresh.value == 1)
    #expect(dir.text(OfferNonceLedger.fileName).split(separator: "\n").count == 1)
  }
}

private final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func add() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}
