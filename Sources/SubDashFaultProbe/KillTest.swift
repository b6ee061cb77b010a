#if canImport(Glibc)
import Glibc
#endif
import DashModel

/// SIGKILLs a saving writer at random moments and checks the file after every kill: it must load
/// and be one complete version, never older than the last check, with its journal intact. Counts
/// where the kills landed (leftover journal bytes = between the journal append and the rename; a
/// leftover temporary file = while the new document was being written).
struct KillTest {
  var dir: String
  var kills: Int
  var seed: UInt64

  func run() -> Bool {
    let path = dir + "/state.json"
    mkdir(dir, 0o755)
    do { try ProbeState.create(at: path) } catch { print("kill-test: cannot create \(path): \(error)"); return false }
    var rng = seed
    func random(_ range: ClosedRange<Int>) -> Int {
      rng = rng &* 6364136223846793005 &+ 1442695040888963407
      return range.lowerBound + Int((rng >> 33) % UInt64(range.count))
    }
    var lastVersion = 0
    var betweenAppendAndRename = 0, duringTempWrite = 0, noProgress = 0
    let me = selfPath()
    for k in 1...kills {
      let pid = spawn([me, "writer", path])
      guard pid > 0 else { print("kill-test: cannot start the writer"); return false }
      usleep(useconds_t(random(2_000...60_000)))
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
      if (status & 0x7F) == 0 {
        print("kill-test: the writer exited by itself (status \((status >> 8) & 0xFF)) before kill \(k): a save failed")
        return false
      }
      switch ProbeState.check(path) {
      case .failure(let why):
        print("kill-test: FAILED after kill \(k): \(why)")
        return false
      case .success(let v):
        if v.version < lastVersion {
          print("kill-test: FAILED after kill \(k): version went back from \(lastVersion) to \(v.version)")
          return false
        }
        if v.version == lastVersion { noProgress += 1 }
        lastVersion = v.version
        if v.leftoverBytes > 0 { betweenAppendAndRename += 1 }
      }
      let leftovers = temporaryFiles()
      if leftovers > 1 {
        print("kill-test: FAILED after kill \(k): \(leftovers) temporary files left (a save must remove its killed predecessors')")
        return false
      }
      if leftovers == 1 { duringTempWrite += 1 }
    }
    // One clean save after all that: it must cut any leftover and keep going.
    do { try ProbeState.saveOne(at: path) } catch { print("kill-test: FAILED: the save after the kills: \(error)"); return false }
    guard case .success(let final) = ProbeState.check(path), final.version == lastVersion + 1, final.leftoverBytes == 0,
          temporaryFiles() == 0 else {
      print("kill-test: FAILED: the save after the kills did not produce version \(lastVersion + 1) with a clean journal and no temporary files")
      return false
    }
    print("kill-test: ok, \(kills) kills, \(final.version) versions saved; every file loaded as one complete version with its journal intact; kills landed between journal append and rename \(betweenAppendAndRename)×, during the temporary-file write \(duringTempWrite)×, before any save completed \(noProgress)×")
    return true
  }

  /// Temporary files a killed writer left (hidden, named after the writer's pid).
  func temporaryFiles() -> Int {
    guard let d = opendir(dir) else { return 0 }
    defer { closedir(d) }
    var count = 0
    while let e = readdir(d) {
      let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
      if name.hasPrefix(".state.json.subdash-tmp-") { count += 1 }
    }
    return count
  }

  func spawn(_ argv: [String]) -> pid_t {
    var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { for p in cArgs { free(p) } }
    var pid: pid_t = 0
    return posix_spawn(&pid, argv[0], nil, nil, &cArgs, environ) == 0 ? pid : -1
  }

  func selfPath() -> String {
    var buf = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buf, buf.count - 1)
    return n > 0 ? String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
  }
}
