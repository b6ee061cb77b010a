import ArgumentParser
import DashModel
import DashView
import Foundation
import SubscriberIndex
import CoreValues
import SubscriberStorage

/// The subscriber list at scale (docs/benchmarks.md, "Many subscribers"): first open with no
/// index, open with an index to the first screen, a filter keystroke, one changed file, memory,
/// and `jq` answering one filter over the same files.
struct ListBench: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "list", abstract: "Benchmark the subscriber list and its SQLite index.")

  @OptionGroup var location: BenchDirectory
  @Option(help: "How many subscribers to generate.")
  var count = 100_000
  @Option(help: "Repetitions for the keystroke and changed-file timings.")
  var repeats = 50
  @Option(help: "The Examples directory the subscribers are copied from.")
  var examples = "Examples"

  func run() throws {
    let dir = "\(location.dir)/population-\(count)"
    print("machine: \(Machine.describe())")
    var t = Date()
    try PopulationGenerator.ensure(count: count, in: dir, examples: examples)
    print("generated \(count) subscribers in \(dir) (\(Stats.time(Date().timeIntervalSince(t))))")
    let wall = Instant(ms: (Date().timeIntervalSince1970 * 1000).rounded())
    let index = "\(dir)/.subdash-index.sqlite"
    for suffix in ["", "-wal", "-shm"] { unlink(index + suffix) }

    // 1. First open, no index: every file read and derived, on all cores.
    let cpu0 = cpuSeconds()
    t = Date()
    let store = try DirectoryStore(directory: dir)
    _ = try store.refresh(names: nil, wall: wall)
    let firstOpen = Date().timeIntervalSince(t)
    let cpu = cpuSeconds() - cpu0
    print("first open, no index: \(Stats.time(firstOpen)) wall, \(Stats.time(cpu)) CPU (\(Stats.fixed(cpu / firstOpen, 2)) cores busy)")

    // 2. Open with the index to the first screen (the stat check of every file follows it).
    t = Date()
    let reopened = try DirectoryStore(directory: dir)
    var state = ListState(directory: dir, rows: try reopened.list(), now: wall)
    _ = ListRender.render(state, width: 120, height: 40, readOnly: false, ascii: false)
    let firstScreen = Date().timeIntervalSince(t)
    t = Date()
    let stale = try reopened.refresh(names: nil, wall: wall)
    let statCheck = Date().timeIntervalSince(t)
    print("open with index to first screen: \(Stats.time(firstScreen)); then stat check of every file: \(Stats.time(statCheck)) (\(stale.upserts.count) re-read)")

    // 3. A filter keystroke to the redrawn list.
    var keys: [Double] = []
    for _ in 0..<max(1, repeats / 10) {
      state.setFilter("")
      state.editingFilter = true  // as after `/`: every key below is typed into the filter
      for key in "status:grace 30000000001" {
        let k = Date()
        _ = ListReducer.reduce(&state, .keyPressed(.char(key)), pageRows: ListRender.pageRows(height: 40))
        _ = ListRender.render(state, width: 120, height: 40, readOnly: false, ascii: false)
        keys.append(Date().timeIntervalSince(k))
      }
    }
    print("filter keystroke to redrawn list: p50 \(Stats.time(Stats.median(keys))), p95 \(Stats.time(Stats.percentile(keys, 0.95))) (\(keys.count) keys; \(state.visible.count) rows match at the end); the first key after open (it builds the search buffer): \(Stats.time(keys[0]))")

    // 3b. A sort key (`s`: the next column) over every row.
    var sorts: [Double] = []
    state.editingFilter = false
    state.setFilter("")
    for _ in 0..<max(1, repeats / 10) {
      let k = Date()
      _ = ListReducer.reduce(&state, .keyPressed(.char("s")), pageRows: ListRender.pageRows(height: 40))
      _ = ListRender.render(state, width: 120, height: 40, readOnly: false, ascii: false)
      sorts.append(Date().timeIntervalSince(k))
    }
    state.setSort(ListSort())
    print("sort key (next column) to redrawn list: p50 \(Stats.time(Stats.median(sorts))), max \(Stats.time(sorts.max()!)) (\(sorts.count) keys)")

    // 4. One changed file reflected: atomic rewrite, index refresh of that name, list update, redraw.
    state.setFilter("")
    var changes: [Double] = []
    let name = "sub-000007.json"
    let path = "\(dir)/\(name)"
    let original = try String(contentsOfFile: path, encoding: .utf8)
    for i in 0..<repeats {
      let text = original + String(repeating: " ", count: 1 + i % 2)  // a new size and inode each time, as a real write
      try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
      let c = Date()
      let diff = try reopened.refresh(names: [name], wall: wall)
      state.apply(upserts: diff.upserts, removed: diff.removed, at: wall)
      _ = ListRender.render(state, width: 120, height: 40, readOnly: false, ascii: false)
      changes.append(Date().timeIntervalSince(c))
    }
    try Data(original.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    print("one changed file reflected (index refresh + list update + redraw; inotify delivery not included): p50 \(Stats.time(Stats.median(changes))), p95 \(Stats.time(Stats.percentile(changes, 0.95)))")

    // 5. Memory of the open with an index, in a fresh process.
    let rss = ChildProcess.measure([ChildProcess.selfPath(), "list-open-once", "--dir", dir])
    print("memory, open with index + first screen (fresh process, peak RSS): \(Stats.bytes(rss.maxRSSKiB * 1024))")

    // 6. jq over the same files answering one filter (who is in grace?).
    if ChildProcess.available("jq") {
      let script = "find \(dir) -maxdepth 1 -name '*.json' -print0 | xargs -0 -P 2 -n 2000 jq -r 'select(.subscriber.renewalInfo.gracePeriodExpiresDate != null) | .subscriber.latestTransaction.originalTransactionId' > /dev/null"
      let run = ChildProcess.measure(["/bin/sh", "-c", script])
      print("jq, status:grace over the same files (xargs -P 2): \(Stats.time(run.seconds)), exit \(run.exitStatus)")
      t = Date()
      var s2 = ListState(directory: dir, rows: try reopened.list(), now: wall)
      s2.setFilter("status:grace")
      print("same question through the index: \(Stats.time(Date().timeIntervalSince(t))) (\(s2.visible.count) rows)")
    }
  }

  private func cpuSeconds() -> Double {
    var u = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &u)
    return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
  }
}

/// One open with an index to the first screen, alone in its process, for the memory figure.
struct ListOpenOnce: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "list-open-once", shouldDisplay: false)
  @OptionGroup var location: BenchDirectory

  func run() throws {
    let store = try DirectoryStore(directory: location.dir)
    let state = ListState(directory: location.dir, rows: try store.list(), now: Instant(ms: 0))
    _ = ListRender.render(state, width: 120, height: 40, readOnly: false, ascii: false)
  }
}
