import Foundation
import Testing

@testable import DashModel

#if canImport(Glibc)
import Glibc
#endif
@testable import CoreValues
@testable import SubscriberStorage

/// Hostile inputs too big to commit or impossible to commit (symlinks, FIFOs, sparse files): made
/// at run time. Same promise as the corpus: a clear one-line error or a documented tolerant load,
/// nothing written on failure, no crash, no hang.
@Suite("Hostile files made at run time")
struct HostileRuntimeFilesTests {
  typealias W = HostileCorpusTests.Workspace
  static let tenMegabytes = 10 << 20

  static func minimalState(_ extra: String = "") -> String {
    #"{ "format": "subdash-state/1", "catalogFile": "valid.storekit", "subscriber": {}\#(extra) }"#
  }

  @Test func aTenMegabyteStringInAnUnknownFieldLoadsSavesAndWritesBack() throws {
    let w = W()
    let blob = String(repeating: "x", count: Self.tenMegabytes)
    let path = w.write("big.json", Array(Self.minimalState(#", "x-blob": "\#(blob)""#).utf8))
    let state = try StateFile.load(path: path)
    #expect(state.document.source["x-blob"] == .string(blob))
    try HostileCorpusTests.appendNotification(path)
    #expect(try StateFile.load(path: path).document.source["x-blob"] == .string(blob))
  }

  @Test func aTenMegabyteProductNameInACatalogLoads() throws {
    let w = W()
    let name = String(repeating: "\u{202E}é", count: Self.tenMegabytes / 6)
    w.write("big.storekit", Array(#"""
      { "subscriptionGroups": [ { "id": "G", "subscriptions": [ { "productID": "p", "groupNumber": 1,
        "recurringSubscriptionPeriod": "P1M", "displayPrice": "1.99", "localizations": [ { "displayName": "\#(name)" } ] } ] } ] }
      """#.utf8))
    let state = try StateFile.load(path: w.stateNaming(catalog: "big.storekit"))
    #expect(state.catalog.product("p")?.displayName == name)
  }

  @Test func aStateFileOverTheSizeLimitIsRefusedBeforeAnyOfItIsRead() throws {
    let w = W()
    let path = w.write("huge.json", [])
    #expect(truncate(path, off_t(300 << 20)) == 0)  // sparse: no disk used
    let e = try #require(HostileCorpusTests.loadError(path))
    #expect(e.description == "huge.json: cannot read: file is 314572800 bytes; the limit is 268435456 bytes")
  }

  @Test func aCatalogOverItsLimitIsRefusedAndNamed() throws {
    let w = W()
    let catalog = w.write("huge.storekit", [])
    #expect(truncate(catalog, off_t(20 << 20)) == 0)
    let e = try #require(HostileCorpusTests.loadError(w.stateNaming(catalog: "huge.storekit")))
    #expect(e.description == "huge.storekit: cannot read the catalog: file is 20971520 bytes; the limit is 16777216 bytes")
  }

  @Test(.timeLimit(.minutes(1)))
  func aNamedPipeIsRefusedWithoutWaitingForAWriter() throws {
    let w = W()
    #expect(mkfifo(w.path("pipe.json"), 0o644) == 0)
    let e = try #require(HostileCorpusTests.loadError(w.path("pipe.json")))
    #expect(e.description == "pipe.json: cannot read: is a named pipe (FIFO), not a regular file")
    #expect(mkfifo(w.path("pipe.storekit"), 0o644) == 0)
    let c = try #require(HostileCorpusTests.loadError(w.stateNaming(catalog: "pipe.storekit")))
    #expect(c.description == "pipe.storekit: cannot read the catalog: is a named pipe (FIFO), not a regular file")
  }

  @Test func aCharacterDeviceIsRefused() throws {
    let w = W()
    #expect(symlink("/dev/zero", w.path("zero.json")) == 0)
    let e = try #require(HostileCorpusTests.loadError(w.path("zero.json")))
    #expect(e.description == "zero.json: cannot read: is a device, not a regular file")
  }

  @Test func aDirectoryNamedLikeAStateFileIsRefused() throws {
    let w = W()
    try FileManager.default.createDirectory(atPath: w.path("dir.json"), withIntermediateDirectories: false)
    let e = try #require(HostileCorpusTests.loadError(w.path("dir.json")))
    #expect(e.description == "dir.json: cannot read: is a directory, not a file")
  }

  @Test func aCatalogSymlinkLeavingTheDirectoryIsRefusedAndOneStayingInsideLoads() throws {
    let w = W()
    #expect(symlink("../outside.storekit", w.path("out.storekit")) == 0)
    let e = try #require(HostileCorpusTests.loadError(w.stateNaming(catalog: "out.storekit")))
    #expect(e.description.hasPrefix("out.storekit.state.json:1:47: $.catalogFile: \"out.storekit\" resolves outside the state file's directory"))
    #expect(symlink("valid.storekit", w.path("in.storekit")) == 0)
    _ = try StateFile.load(path: w.stateNaming(catalog: "in.storekit"))
  }

  @Test func aJournalThatIsASymlinkIsNeverWrittenThrough() throws {
    let w = W()
    let victim = w.root.write("victim.txt", Array(String(repeating: "precious\n", count: 100).utf8))
    let before = w.root.bytes("victim.txt")
    #expect(symlink(victim, w.path("s.journal.jsonl")) == 0)
    let path = w.write("s.json", Array(Self.minimalState(#", "journal": { "file": "s.journal.jsonl", "committedBytes": 90 }"#).utf8))
    let stateBefore = w.bytes("s.json")
    let state = try StateFile.load(path: path)
    #expect {
      try HostileCorpusTests.appendNotification(path)
    } throws: { error in
      "\(error)" == "s.journal.jsonl: cannot open the history journal: is a symbolic link; SubDash reads and writes the journal only as a plain file; nothing was saved"
    }
    #expect(throws: StateFileError.self) { try StateFile.recentNotifications(state, statePath: path, limit: 10) }
    #expect(w.root.bytes("victim.txt") == before)
    #expect(w.bytes("s.json") == stateBefore)
  }

  @Test func aPlantedSymlinkAtTheTemporaryFileNameIsReplacedNotFollowed() throws {
    let w = W()
    let victim = w.root.write("victim.txt", Array("precious\n".utf8))
    let path = w.write("s.json", Array(Self.minimalState().utf8))
    // The name a locked save writes to, and the one an unlocked writer (AtomicWriter) uses.
    #expect(symlink(victim, w.path(".s.json.subdash-tmp")) == 0)
    #expect(symlink(victim, w.path(".s.json.subdash-tmp-\(getpid())")) == 0)
    try StateFile.update(path: path) { (state) throws(StateFileError) in Change(state: state, message: "save") }
    #expect(w.root.text("victim.txt") == "precious\n")
    try AtomicWriter.write(Array(Self.minimalState().utf8), to: path)
    #expect(w.root.text("victim.txt") == "precious\n")
    _ = try StateFile.load(path: path)
  }

  @Test func anObjectWithAHundredThousandKeysLoadsAndADuplicateAmongThemIsFound() throws {
    let w = W()
    let keys = (0..<100_000).map { #""x-\#($0)": \#($0)"# }.joined(separator: ", ")
    _ = try StateFile.load(path: w.write("wide.json", Array(Self.minimalState(", " + keys).utf8)))
    let dup = w.write("wide-dup.json", Array(Self.minimalState(", " + keys + #", "x-99999": 0"#).utf8))
    let e = try #require(HostileCorpusTests.loadError(dup))
    #expect(e.description.contains("invalid JSON: duplicate key \"x-99999\""))
  }

  @Test func nestingAHundredThousandDeepIsRefusedWithoutExhaustingTheStack() throws {
    let w = W()
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let e = try #require(HostileCorpusTests.loadError(w.write("deep.json", Array(Self.minimalState(#", "x": \#(deep)"#).utf8))))
    #expect(e.description.hasSuffix("invalid JSON: nesting deeper than 256 levels"))
  }
}
