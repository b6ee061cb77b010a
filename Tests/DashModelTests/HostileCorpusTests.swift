import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// One file of the hostile corpus and what SubDash must do with it (Fixtures/hostile/EXPECTED.tsv).
struct HostileCase: Sendable, CustomTestStringConvertible {
  enum Outcome: String, Sendable {
    /// Loading fails with one line starting with `text`; a save fails too and changes no byte.
    case error
    /// Loading works (`text` says why that is right); the report, a write/read round trip, the
    /// notification log and a save that appends to the journal all work.
    case loads
    /// Loading works, but a save that appends to the journal fails with one line starting with
    /// `text`, and changes no byte of the state file.
    case saveRefused = "save-refused"
  }

  var file: String
  var outcome: Outcome
  var text: String
  var testDescription: String { file }

  /// .storekit files are loaded through a state file that names them in `catalogFile`.
  var isCatalog: Bool { file.hasSuffix(".storekit") }

  static func manifest() -> [HostileCase] {
    Fixture.text("hostile/EXPECTED.tsv").split(separator: "\n").compactMap { line in
      if line.hasPrefix("#") || line.trimmingCharacters(in: .whitespaces).isEmpty { return nil }
      let f = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
      guard f.count == 3, let o = Outcome(rawValue: f[1]) else { fatalError("bad EXPECTED.tsv line: \(line)") }
      return HostileCase(file: f[0], outcome: o, text: f[2])
    }
  }
}

/// Files support staff are sent can be damaged or hostile. Every one must give a clear one-line
/// error naming the file (and line, column and JSON path where there is one) or load as the
/// tolerant-load rules in docs/reliability.md say; a failed save changes nothing; nothing crashes.
@Suite("Hostile corpus")
struct HostileCorpusTests {
  /// A workspace: `root/case/` holds the file under test and the companions some cases name;
  /// `root/outside.storekit` is a valid catalog outside it, for the escape attempts.
  struct Workspace {
    let root = TempDir()
    let dir: String

    init(copying files: [String] = []) {
      dir = root.file("case")
      try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
      root.write("outside.storekit", Fixture.bytes("hostile/valid.storekit"))
      for f in files + ["valid.storekit", "catalogfile-valid.json"] { copy(f) }
    }

    func copy(_ name: String) {
      _ = FileManager.default.createFile(atPath: path(name), contents: Data(Fixture.bytes("hostile/\(name)")))
    }

    func path(_ name: String) -> String { dir + "/" + name }
    func bytes(_ name: String) -> [UInt8] { Array(FileManager.default.contents(atPath: path(name)) ?? Data()) }

    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) -> String {
      _ = FileManager.default.createFile(atPath: path(name), contents: Data(bytes))
      return path(name)
    }

    /// A state file that takes its catalog from `catalog`.
    func stateNaming(catalog: String) -> String {
      write(catalog + ".state.json", Array(#"{ "format": "subdash-state/1", "catalogFile": "\#(catalog)", "subscriber": {} }"#.utf8))
    }
  }

  /// Appends one notification through the real write path.
  static func appendNotification(_ path: String) throws(StateFileError) {
    try StateFile.update(path: path) { (state) throws(StateFileError) in
      Change(state: state, notifications: [NotificationRecord(type: .test, uuid: "hostile", signedDate: Instant(ms: 1_778_770_800_000), status: nil)],
             message: "test")
    }
  }

  /// The error, which must be a single line.
  static func loadError(_ path: String) -> StateFileError? {
    do {
      _ = try StateFile.load(path: path)
      return nil
    } catch {
      #expect(!error.description.contains(where: { $0.isNewline }), "not one line: \(error.description)")
      return error
    }
  }

  static func viewingTime(_ state: SubscriptionState) -> Instant {
    if case .number(let n)? = state.document.simulation?["now"], let ms = Double(n) { return Instant(ms: ms) }
    return Instant(ms: 1_778_770_800_000)
  }

  @Test(arguments: HostileCase.manifest())
  func eachFileFailsCleanlyOrLoadsAsDocumented(_ c: HostileCase) throws {
    let w = Workspace(copying: [c.file])
    let target = c.isCatalog ? w.stateNaming(catalog: c.file) : w.path(c.file)
    let before = w.bytes((target as NSString).lastPathComponent)
    switch c.outcome {
    case .error:
      let error = try #require(Self.loadError(target), "\(c.file) loaded; expected: \(c.text)")
      #expect(error.description.hasPrefix(c.text), "\(error.description)")
      #expect(throws: StateFileError.self) { try Self.appendNotification(target) }
      #expect(w.bytes((target as NSString).lastPathComponent) == before, "a failed save changed \(c.file)")
    case .loads, .saveRefused:
      let state = try StateFile.load(path: target)
      _ = Lifecycle.derive(state, at: Self.viewingTime(state))
      let written = JSONWriter.write(state.document.json)
      let again = try StateFile.decode(written, fileName: c.file) { (_) throws(StateFileError) in state.catalog }
      #expect(again.document.json == state.document.json, "writing and reading back changed the document")
      do {
        _ = try StateFile.recentNotifications(state, statePath: target, limit: 50)
      } catch {
        #expect(c.outcome == .saveRefused, "\(error.description)")
        #expect(!error.description.contains(where: { $0.isNewline }))
      }
      if c.outcome == .loads {
        try Self.appendNotification(target)
        let saved = try StateFile.load(path: target)
        #expect(saved.historySummary.notificationCount == state.historySummary.notificationCount + 1)
      } else {
        #expect {
          try Self.appendNotification(target)
        } throws: { error in
          (error as? StateFileError)?.description.hasPrefix(c.text) == true
        }
        #expect(w.bytes((target as NSString).lastPathComponent) == before, "a failed save changed \(c.file)")
      }
    }
  }

  @Test func theManifestListsEveryFileOfTheCorpusAndNoOther() throws {
    let directory = Fixture.url("hostile").path
    let files = Set(try FileManager.default.contentsOfDirectory(atPath: directory)).subtracting(["EXPECTED.tsv", "README.md"])
    let listed = HostileCase.manifest().map(\.file)
    #expect(Set(listed) == files)
    #expect(listed.count == Set(listed).count, "a file is listed twice")
    #expect(files.count >= 50)
  }
}
