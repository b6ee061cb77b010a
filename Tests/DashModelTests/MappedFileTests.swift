import Foundation
import Testing
@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// `show` maps a big state file instead of copying it into memory (`StateFile.loadForViewing`).
@Suite struct MappedFileTests {
  /// A valid state file of a few megabytes more than the mapping threshold: the example
  /// subscriber with a long inline history, pretty-printed as SubDash writes it.
  static func bigStateFile(in dir: TempDir) throws -> String {
    guard case .object(var root) = try JSONParser.parse(Self.example("grace-period.json")),
          case .object(var subscriber)? = root["subscriber"], let latest = subscriber["latestTransaction"] else {
      throw StateFileError(file: "grace-period.json", message: "unexpected example shape")
    }
    subscriber["transactions"] = .array(Array(repeating: latest, count: 14_000))
    root["subscriber"] = .object(subscriber)
    return dir.write("big.json", JSONWriter.write(.object(root)))
  }

  static func example(_ name: String) -> [UInt8] {
    Array(FileManager.default.contents(atPath: ExamplesTests.directory.appendingPathComponent(name).path) ?? Data())
  }

  @Test func aBigFileViewedMappedIsTheSameStateAsOneRead() throws {
    let dir = TempDir()
    let path = try Self.bigStateFile(in: dir)
    #expect(dir.bytes("big.json").count >= MappedFile.mapFrom)
    guard case .success(.mapped(let mapped)) = MappedFile.open(path: path, limit: StateFile.maxDocumentBytes) else {
      Issue.record("a file past the threshold was not mapped")
      return
    }
    #expect(mapped.bytes.count == dir.bytes("big.json").count)
    try expectTheSameView(path)
  }

  /// Two big files viewed at the same moment (a test runner, a server showing two subscribers):
  /// one mapping is guarded at a time, so the second is read into memory, and must be viewed the
  /// same way, read for the story while parsed.
  @Test func aBigFileViewedWhileAnotherIsReadMappedIsTheSameState() throws {
    let dir = TempDir()
    let path = try Self.bigStateFile(in: dir)
    let other = dir.write("other.json", dir.bytes("big.json"))
    guard case .success(.mapped(let held)) = MappedFile.open(path: other, limit: StateFile.maxDocumentBytes) else {
      Issue.record("a file past the threshold was not mapped")
      return
    }
    // Other tests view big files in parallel and may hold the guard for a moment: wait for it,
    // a bounded number of times.
    var compared: Bool?
    for _ in 0..<1_200 where compared == nil {
      compared = try held.whileReading(fileName: "other.json") { (_) throws(StateFileError) in
        do { try expectTheSameView(path) } catch let error as StateFileError { throw error } catch {
          Issue.record("unexpected error \(error)")
        }
        return true
      }
      if compared == nil { usleep(50_000) }
    }
    #expect(compared == true, "the mapping guard stayed busy for a minute")
  }

  /// Viewing keeps only the inline history's fields the summary and the story read: everything
  /// else in the state, the summary and the story are the file's, read whole.
  private func expectTheSameView(_ path: String) throws {
    let viewed = try StateFile.loadForViewing(path: path), read = try StateFile.load(path: path)
    #expect(viewed.forViewing() == read.forViewing())
    #expect(viewed.subscriber.transactions.count == read.subscriber.transactions.count)
    #expect(viewed.subscriber.transactions.summary == read.subscriber.transactions.summary)
    #expect(CustomerHistory.load(viewed, statePath: path) == CustomerHistory.load(read, statePath: path))
    // Read for the story while parsed (InlineHistory.storyProjection), not kept as JSON.
    #expect(read.subscriber.transactions.isEmpty || viewed.subscriber.transactions.viewed != nil)
    #expect(viewed.subscriber.transactions.entries.count == 0)  // a count: a failure prints a number, not megabytes
  }

  @Test func smallFilesAreReadAndErrorsAreTheSame() throws {
    let dir = TempDir()
    let small = dir.write("grace-period.json", Self.example("grace-period.json"))
    guard case .success(.read(let bytes)) = MappedFile.open(path: small, limit: StateFile.maxDocumentBytes), bytes == dir.bytes("grace-period.json") else {
      Issue.record("a small file should be read, not mapped")
      return
    }
    try expectTheSameView(small)
    let missing = dir.file("missing.json")
    #expect(throws: StateFileError.self) { try StateFile.loadForViewing(path: missing) }
    var viewing: StateFileError?
    var reading: StateFileError?
    do { _ = try StateFile.loadForViewing(path: missing) } catch { viewing = error }
    do { _ = try StateFile.load(path: missing) } catch { reading = error }
    #expect(viewing?.description == reading?.description)
  }

  @Test func aBigDamagedFileNamesTheSameLineAsWhenRead() throws {
    let dir = TempDir()
    let path = try Self.bigStateFile(in: dir)
    var bytes = dir.bytes("big.json")
    // A price written as a string, deep in the history (a decode error with a path and a line).
    let needle = Array("\"price\": ".utf8)
    var hits = 0, at = -1
    for k in 0..<(bytes.count - needle.count) where bytes[k] == needle[0] && Array(bytes[k..<(k + needle.count)]) == needle {
      hits += 1
      if hits == 9_000 { at = k + needle.count; break }
    }
    #expect(at > 0)
    bytes.insert(UInt8(ascii: "x"), at: at)
    _ = dir.write("big.json", bytes)
    var viewing: StateFileError?
    var reading: StateFileError?
    do { _ = try StateFile.loadForViewing(path: path) } catch { viewing = error }
    do { _ = try StateFile.load(path: path) } catch { reading = error }
    #expect(viewing != nil)
    #expect(viewing?.description == reading?.description)
  }

  /// Another program cuts the file short while it is mapped: one line naming the file, status 2,
  /// not a crash. Run in a child process, since the guard ends the process.
  @Test func aFileCutShortWhileMappedEndsWithOneLineAndStatus2() async {
    let result = await #expect(processExitsWith: .exitCode(2), observing: [\.standardErrorContent]) {
      var template = Array("/tmp/subdash-mapped-XXXXXX".utf8CString)
      guard let dir = mkdtemp(&template) else { exit(3) }
      let path = String(cString: dir) + "/cut.json"
      let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
      let chunk = [UInt8](repeating: 0x20, count: 1 << 20)
      for _ in 0..<(MappedFile.mapFrom >> 20) + 1 { _ = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
      close(fd)
      guard case .success(.mapped(let mapped)) = MappedFile.open(path: path, limit: 64 << 20) else { exit(4) }
      // The cut: every mapped page is now past the end of the file.
      _ = truncate(path, 0)
      unlink(path)
      rmdir(String(cString: dir))
      _ = try? mapped.whileReading(fileName: "cut.json") { (bytes) throws(StateFileError) in
        var sum = 0
        for k in stride(from: 0, to: bytes.count, by: 4096) { sum &+= Int(bytes[k]) }
        return sum
      }
      exit(0)
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(stderr == "subdash: cut.json: the file was cut short by another program while it was read; nothing was changed; run again\n")
  }
}
