import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// A fresh directory under the system temporary directory, removed when the test is done with it.
final class TempDir {
  let url: URL
  var path: String { url.path }

  init() {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-tests-\(UUID().uuidString)", isDirectory: true)
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  func file(_ name: String) -> String { url.appendingPathComponent(name).path }

  @discardableResult
  func write(_ name: String, _ text: String) -> String { write(name, Array(text.utf8)) }

  @discardableResult
  func write(_ name: String, _ bytes: [UInt8]) -> String {
    let p = file(name)
    _ = FileManager.default.createFile(atPath: p, contents: Data(bytes))
    return p
  }

  func bytes(_ name: String) -> [UInt8] { Array(FileManager.default.contents(atPath: file(name)) ?? Data()) }
  func text(_ name: String) -> String { String(decoding: bytes(name), as: UTF8.self) }

  /// Copies a file from Tests/DashModelTests/Fixtures (e.g. "storekit/backyard-birds.storekit").
  @discardableResult
  func copyFixture(_ relative: String, as name: String? = nil) -> String {
    write(name ?? (relative as NSString).lastPathComponent, Fixture.bytes(relative))
  }
}

enum Fixture {
  static func url(_ relative: String) -> URL {
    Bundle.module.resourceURL!.appendingPathComponent("Fixtures").appendingPathComponent(relative)
  }

  static func bytes(_ relative: String) -> [UInt8] {
    guard let d = FileManager.default.contents(atPath: url(relative).path) else { fatalError("missing fixture \(relative)") }
    return Array(d)
  }

  static func text(_ relative: String) -> String { String(decoding: bytes(relative), as: UTF8.self) }

  /// The payload (middle part) of a compact JWS, base64url-decoded: what Apple signed.
  static func jwsPayload(_ relative: String) -> String {
    let parts = text(relative).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".")
    var b64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while b64.count % 4 != 0 { b64 += "=" }
    return String(decoding: Data(base64Encoded: b64)!, as: UTF8.self)
  }
}

/// Runs an action through the real write path (lock, re-read, journal, atomic rename).
@discardableResult
func update(_ path: String, _ action: PlanAction, at now: Instant) throws(StateFileError) -> StateFile.Saved {
  try StateFile.update(path: path) { (state) throws(StateFileError) -> Change in
    switch Actions.apply(action, to: state, at: now) {
    case .success(let c): return c
    case .failure(let e): throw StateFileError(file: "action", message: e.message)
    }
  }
}

/// The JSON at a path of keys in a parsed file.
func value(_ json: JSON, _ keys: String...) -> JSON? {
  var v: JSON? = json
  for k in keys { v = v?.objectValue?[k] }
  return v
}

func parse(_ text: String) -> JSON {
  do { return try JSONParser.parse(Array(text.utf8)) } catch { fatalError("bad JSON in test: \(error)") }
}

/// A subscriber's whole history in the order a reader takes it: the inline entries (a young
/// subscriber's whole history, `StateFile.inlineHistoryLimit`), then the journal's committed part.
func historyEntries(_ path: String) throws -> [Journal.Entry] {
  try StateFile.historyEntries(StateFile.load(path: path), statePath: path)
}

extension StorageConcurrencyTests {
  /// `base` for a subscriber that journals from its first entry (as one past the inline limit
  /// does): for tests of the journal's own mechanics.
  static func journaling(_ stateFileName: String) -> String {
    base.replacingOccurrences(of: #""format": "subdash-state/1","#,
                              with: #""format": "subdash-state/1", "journal": { "file": "\#(Journal.defaultName(for: stateFileName))" },"#)
  }
}
