import ArgumentParser
import DashModel
import CoreValues
import SubscriberStorage

struct Load: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Time loading each file: SubDash (load + Lifecycle.derive) side by side with python3 json.load and jq.")

  @OptionGroup var location: BenchDirectory
  @Option(help: "Comma-separated history sizes.")
  var sizes = "1,1000,10000,100000"
  @Option(help: "Runs per tool and file; the table shows medians.")
  var runs = 5
  @Flag(help: "Only the in-process timings (quick iterations while optimizing).")
  var inProcessOnly = false

  func run() throws {
    print(Machine.describe())
    let me = ChildProcess.selfPath()
    let python = ChildProcess.pythonExecutable()
    let jq = ChildProcess.available("jq")
    print("python3: \(python ?? "not found"); jq: \(jq ? "found" : "not found")")
    print("""

      In-process (median of \(runs)): parse = JSONParser.parse of the bytes; load+derive = StateFile.load + Lifecycle.derive.
      Processes (median wall time of \(runs); peak RSS by /usr/bin/time -f %M, which adds ~1 ms): SubDash = `SubDashBench load-once F` (read, load, derive, exit);
      python3 = `python3 -c "import json; json.load(open(F))"`; jq = `jq -c . F > /dev/null`.

      | transactions | file | parse | load+derive | SubDash process | python3 json.load | jq -c . | SubDash ÷ python3 | RSS SubDash | RSS python3 | RSS jq |
      |---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
      """)
    for n in try parseSizes(sizes) {
      let path = try StateFiles.ensure(renewals: n, in: location.dir)
      let (parse, load) = try inProcess(path)
      if inProcessOnly {
        print("| \(n) | \(Stats.bytes(StateFiles.size(path))) | \(Stats.time(parse)) | \(Stats.time(load)) |")
        continue
      }
      var ours: [ChildRun] = [], py: [ChildRun] = [], jqRuns: [ChildRun] = []
      // Interleaved so that a slow moment on a shared machine hits every tool alike.
      for _ in 0..<runs {
        ours.append(ChildProcess.measure([me, "load-once", path]))
        if let python { py.append(ChildProcess.measure([python, "-c", "import json, sys; json.load(open(sys.argv[1]))", path])) }
        if jq { jqRuns.append(ChildProcess.measure(["jq", "-c", ".", path])) }
      }
      if let bad = ours.first(where: { $0.exitStatus != 0 }) { throw ValidationError("load-once \(path) exited with \(bad.exitStatus)") }
      let oursWall = Stats.median(ours.map(\.seconds))
      let pyWall = python != nil ? Stats.median(py.map(\.seconds)) : .nan
      let jqWall = jq ? Stats.median(jqRuns.map(\.seconds)) : .nan
      let rss = { (r: [ChildRun]) in r.isEmpty || !ChildProcess.gnuTime ? "n/a" : Stats.bytes((r.map(\.maxRSSKiB).max() ?? 0) * 1024) }
      print("| \(n) | \(Stats.bytes(StateFiles.size(path))) | \(Stats.time(parse)) | \(Stats.time(load)) | \(Stats.time(oursWall)) | \(Stats.time(pyWall)) | \(Stats.time(jqWall)) | \(Stats.fixed(oursWall / pyWall, 2)) | \(rss(ours)) | \(rss(py)) | \(rss(jqRuns)) |")
    }
  }

  private func inProcess(_ path: String) throws -> (parse: Double, load: Double) {
    let bytes = try readBytes(path)
    let clock = ContinuousClock()
    var parse: [Double] = [], load: [Double] = []
    for _ in 0..<runs {
      parse.append(clock.measure { _ = try? JSONParser.parse(bytes) }.seconds)
      var failure: StateFileError?
      load.append(clock.measure {
        do throws(StateFileError) { _ = try LoadOnce.loadAndDerive(path) } catch { failure = error }
      }.seconds)
      if let failure { throw ValidationError(failure.description) }
    }
    return (Stats.median(parse), Stats.median(load))
  }
}

/// Loads one file and derives its lifecycle, as the dashboard does on start; used as the process
/// timed against python3 and jq.
struct LoadOnce: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "load-once", shouldDisplay: false)
  @Argument var file: String

  func run() throws {
    do {
      let report = try Self.loadAndDerive(file)
      print(report.status.map(\.description) ?? "never subscribed")
    } catch {
      print(error.description)
      throw ExitCode(2)
    }
  }

  /// `StateFile.load` + `Lifecycle.derive` at the file's simulated `now`.
  static func loadAndDerive(_ path: String) throws(StateFileError) -> LifecycleReport {
    let state = try StateFile.load(path: path)
    var now = Instant(ms: 1_800_000_000_000)
    if case .number(let n)? = state.document.simulation?["now"], let ms = Double(n) { now = Instant(ms: ms) }
    return Lifecycle.derive(state, at: now)
  }
}
