import Glibc
import Testing
@testable import DashRuntime
@testable import SubDash

/// A private temp directory per test, removed afterwards.
final class TempDir {
  let path: String
  init() {
    var template = Array("/tmp/subdash-test.XXXXXX".utf8CString)
    path = String(cString: mkdtemp(&template)!)
  }
  deinit { _ = system("rm -rf '\(path)'") }
  func file(_ name: String) -> String { path + "/" + name }
  func write(_ name: String, _ text: String) {
    let fd = open(file(name), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    precondition(fd >= 0)
    _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
    close(fd)
  }
  func rename(_ from: String, _ to: String) { precondition(Glibc.rename(file(from), file(to)) == 0) }
  func remove(_ name: String) { unlink(file(name)) }
}

@Suite struct FileWatcherTests {
  @Test func inotifySeesRenameOverAndInPlaceWritesButNotOtherFiles() {
    let dir = TempDir()
    dir.write("state.json", "1")
    let w = FileWatcher(path: dir.file("state.json"), useInotify: true)
    #expect(w.mode == .inotify)
    #expect(w.fd != nil)
    #expect(w.drain() == false)

    dir.write(".state.json.tmp", "2")       // a writer's temp file: not ours
    dir.write("state.json.bak", "2")
    #expect(w.drain() == false)

    dir.rename(".state.json.tmp", "state.json")
    #expect(w.drain() == true)
    #expect(w.drain() == false)              // drained: no repeat

    dir.write("state.json", "3")
    #expect(w.drain() == true)

    dir.remove("state.json")
    #expect(w.drain() == true)
  }

  @Test func pollingComparesInodeSizeAndMtime() {
    let dir = TempDir()
    dir.write("state.json", "1")
    let w = FileWatcher(path: dir.file("state.json"), useInotify: false)
    #expect(w.mode == .polling)
    #expect(w.fd == nil)
    #expect(w.drain() == false)
    // Same size, and possibly the same mtime tick: only the inode tells the rename apart.
    dir.write("tmp", "2")
    dir.rename("tmp", "state.json")
    #expect(w.drain() == true)
    #expect(w.drain() == false)
    dir.remove("state.json")
    #expect(w.drain() == true)
    dir.write("state.json", "3")
    #expect(w.drain() == true)
  }

  @Test func missingDirectoryFallsBackToPolling() {
    let w = FileWatcher(path: "/nonexistent-subdash-dir/state.json", useInotify: true)
    #expect(w.mode == .polling)
    #expect(w.drain() == false)
  }

  @Test func removedDirectorySwitchesToPolling() {
    let dir = TempDir()
    dir.write("state.json", "1")
    let w = FileWatcher(path: dir.file("state.json"), useInotify: true)
    dir.remove("state.json")
    _ = rmdir(dir.path)
    #expect(w.drain() == true)
    #expect(w.mode == .polling)
  }

  @Test func relativePathWatchesTheCurrentDirectory() {
    let w = FileWatcher(path: "no-such-file-here.json", useInotify: true)
    #expect(w.mode == .inotify)
  }

  @Test func parsesPackedEventsWithPaddedNames() {
    func record(mask: UInt32, name: String, padTo: Int) -> [UInt8] {
      var ev = inotify_event()
      ev.wd = 1
      ev.mask = mask
      ev.len = UInt32(padTo)
      var bytes = withUnsafeBytes(of: &ev) { Array($0) }
      var nameBytes = Array(name.utf8)
      nameBytes += Array(repeating: 0, count: padTo - nameBytes.count)
      bytes += nameBytes
      return bytes
    }
    let buf = record(mask: UInt32(IN_MOVED_TO), name: "state.json", padTo: 16)
      + record(mask: UInt32(IN_CREATE), name: "x", padTo: 16)
      + record(mask: UInt32(IN_Q_OVERFLOW), name: "", padTo: 0)
    let events = buf.withUnsafeBytes { FileWatcher.parse($0) }
    #expect(events == [
      .init(mask: UInt32(IN_MOVED_TO), name: Array("state.json".utf8)),
      .init(mask: UInt32(IN_CREATE), name: Array("x".utf8)),
      .init(mask: UInt32(IN_Q_OVERFLOW), name: []),
    ])
  }
}
