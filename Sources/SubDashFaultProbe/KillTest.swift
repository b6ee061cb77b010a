#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DashModel
import CoreValues
import SubscriberStorage

/// SIGKILLs a saving writer at random moments and checks the file after every kill: it must load
/// and be one complete version, never older than the last check, with its journal intact, and the
/// directory may hold at most one stray file (the killed writer's temporary file), which the next
/// save removes. Counts where the kills landed (leftover journal bytes = between the journal
/// append and the rename; a leftover temporary file = while the new document was being written).
///
/// The writer is the probe's own numbered-renewal loop (`ProbeWriterTarget`) or the real
/// `subdash simulate --fast` (`SimulatorTarget`).
struct KillTest {
  var dir: String
  var kills: Int
  var seed: UInt64
  var target: any KillTarget

  var path: String { dir + "/state.json" }

  func run() -> Bool {
    if let why = target.prepare(path) { print("\(target.name): \(why)"); return false }
    // Whatever is here now is the test's; anything else appearing later is a stray file.
    let expected = Set(entries().filter { !isTemporary($0) }).union([".subdash.lock", "state.journal.jsonl"])
    var rng = seed
    func random(_ range: ClosedRange<Int>) -> Int {
      rng = rng &* 6364136223846793005 &+ 1442695040888963407
      return range.lowerBound + Int((rng >> 33) % UInt64(range.count))
    }
    var last: KillProgress
    switch target.check(path) {
    case .failure(let why): print("\(target.name): the starting file: \(why)"); return false
    case .success(let p): last = p
    }
    let first = last
    var betweenAppendAndRename = 0, duringTempWrite = 0, noProgress = 0
    for k in 1...kills {
      guard case .success(let pid) = ChildProcess.spawn(target.writerCommand(path), redirects: target.quietWriter ? [1: nil] : [:]) else {
        print("\(target.name): cannot start the writer"); return false
      }
      usleep(useconds_t(random(2_000...60_000)))
      kill(pid, SIGKILL)
      let code = ChildProcess.wait(pid)
      if code != 128 + SIGKILL {
        print("\(target.name): the writer ended by itself (status \(code)) before kill \(k)")
        return false
      }
      let now: KillProgress
      switch target.check(path) {
      case .failure(let why):
        print("\(target.name): FAILED after kill \(k): \(why)")
        return false
      case .success(let p): now = p
      }
      if let why = now.wentBack(from: last) {
        print("\(target.name): FAILED after kill \(k): \(why)")
        return false
      }
      if now.saves == last.saves { noProgress += 1 }
      if now.leftoverBytes > 0 { betweenAppendAndRename += 1 }
      last = now
      let names = entries()
      let temporary = names.filter(isTemporary)
      if temporary.count > 1 {
        print("\(target.name): FAILED after kill \(k): \(temporary.count) temporary files left (a save must remove its killed predecessors')")
        return false
      }
      if let stray = names.first(where: { !isTemporary($0) && !expected.contains($0) }) {
        print("\(target.name): FAILED after kill \(k): stray file \(stray)")
        return false
      }
      if temporary.count == 1 { duringTempWrite += 1 }
    }
    // One clean save after all that: it must cut any leftover, remove the temporary file and keep going.
    if let why = target.saveOnce(path) { print("\(target.name): FAILED: the save after the kills: \(why)"); return false }
    guard case .success(let final) = target.check(path), final.saves == last.saves + 1, final.leftoverBytes == 0,
          entries().filter(isTemporary).isEmpty else {
      print("\(target.name): FAILED: the save after the kills did not add one save with a clean journal and no temporary files")
      return false
    }
    print("\(target.name): ok, \(kills) kills, \(final.saves - first.saves) \(target.savesNoun) saved\(final.detail); every file loaded as one complete version with its journal intact; kills landed between journal append and rename \(betweenAppendAndRename)×, during the temporary-file write \(duringTempWrite)×, before any save completed \(noProgress)×")
    return true
  }

  /// Temporary files a killed writer left: the locked writers' one fixed name, or an unlocked
  /// writer's named after its pid.
  func isTemporary(_ name: String) -> Bool { name == ".state.json.subdash-tmp" || name.hasPrefix(".state.json.subdash-tmp-") }

  func entries() -> [String] {
    guard let d = opendir(dir) else { return [] }
    defer { closedir(d) }
    var names: [String] = []
    while let e = readdir(d) {
      let name = DirectoryEntry.name(e)
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }
}

/// Where a kill test stands after a kill: how many saves the file holds, and what must never go back.
struct KillProgress {
  var saves: Int
  var clock: Instant?
  var leftoverBytes: Int64
  /// Appended to the summary line (", clock …").
  var detail = ""

  func wentBack(from old: KillProgress) -> String? {
    if saves < old.saves { return "went back from \(old.saves) saves to \(saves)" }
    if let c = clock, let o = old.clock, c < o { return "the clock went back from \(HistoryCheck.exact(o)) to \(HistoryCheck.exact(c))" }
    return nil
  }
}

/// A writer to kill and the checks of what it writes.
protocol KillTarget {
  var name: String { get }
  /// "versions", "events": what `saves` counts.
  var savesNoun: String { get }
  /// Whether the writer's standard output goes to /dev/null (the simulator prints every event).
  var quietWriter: Bool { get }
  /// Makes or checks the starting file; returns why not.
  func prepare(_ path: String) -> String?
  func writerCommand(_ path: String) -> [String]
  func check(_ path: String) -> Result<KillProgress, ProbeState.CheckFailure>
  /// One complete save (one version, one event) after the kills; returns why it failed.
  func saveOnce(_ path: String) -> String?
}

/// The probe's own writer: numbered renewals through `StateFile.update` (ProbeState).
struct ProbeWriterTarget: KillTarget {
  var name: String { "kill-test" }
  var savesNoun: String { "versions" }
  var quietWriter: Bool { false }

  func prepare(_ path: String) -> String? {
    mkdir(String(path[..<path.lastIndex(of: "/")!]), 0o755)
    do { try ProbeState.create(at: path) } catch { return "cannot create \(path): \(error)" }
    return nil
  }

  func writerCommand(_ path: String) -> [String] { [KillTest.selfPath(), "writer", path] }

  func check(_ path: String) -> Result<KillProgress, ProbeState.CheckFailure> {
    ProbeState.check(path).map { KillProgress(saves: $0.version, clock: nil, leftoverBytes: $0.leftoverBytes) }
  }

  func saveOnce(_ path: String) -> String? {
    do { try ProbeState.saveOne(at: path) } catch { return error.description }
    return nil
  }
}

/// The real `subdash simulate --fast` on a state file made beforehand (an auto-renewing
/// subscription at a fast rate, so it writes hundreds of events a second). After every kill the
/// file must also pass `subdash show --json` (exit 0) and `HistoryCheck`.
struct SimulatorTarget: KillTarget {
  var subdash: String
  var name: String { "kill-test (simulator)" }
  var savesNoun: String { "events" }
  var quietWriter: Bool { true }

  func prepare(_ path: String) -> String? {
    switch HistoryCheck.verify(path) {
    case .failure(let why): return "the starting file \(path) (made by a scenario beforehand): \(why)"
    case .success(let f): return f.transactions > 0 ? nil : "the starting file \(path) has no subscription to renew"
    }
  }

  func writerCommand(_ path: String) -> [String] { [subdash, "simulate", "--fast", path] }

  func check(_ path: String) -> Result<KillProgress, ProbeState.CheckFailure> {
    if let why = ChildProcess.run([subdash, "show", "--json", path], upTo: .seconds(60)) { return .failure("subdash show --json: \(why)") }
    return HistoryCheck.verify(path).map {
      KillProgress(saves: $0.notifications, clock: $0.clock, leftoverBytes: $0.leftoverBytes,
                   detail: " (\($0.renewals) renewals in the file, clock \($0.clock.map(HistoryCheck.exact) ?? "unset"))")
    }
  }

  func saveOnce(_ path: String) -> String? {
    ChildProcess.run([subdash, "simulate", "--steps", "1", path], upTo: .seconds(60)).map { "subdash simulate --steps 1: \($0)" }
  }
}

extension KillTest {
  /// This probe's own executable: it runs itself as the writer it kills.
  static func selfPath() -> String {
    var buf = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buf, buf.count - 1)
    return n > 0 ? String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
  }
}
