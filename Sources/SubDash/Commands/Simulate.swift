import ArgumentParser
import DashModel
import DashRuntime
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues
import SubscriberStorage

/// `subdash simulate FILE`: runs the App Store's clock against a state file.
struct Simulate: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "simulate",
    abstract: "Run a virtual App Store clock against a state file (renewals, billing issues, expiry).",
    discussion: """
      Wall-clock mode (the default) runs at the file's time rate, e.g. --rate monthlyRenewalEveryFiveMinutes. --fast, --until and --steps jump from event to event as fast as possible.

      --scenario SCRIPT runs a scenario script against FILE; --check SCRIPT runs it on a scratch copy and exits 1 on the first mismatch.

      Every write goes through the locked, atomic path, so dashboards open on FILE keep their key presses. Ctrl-C stops cleanly. Exit codes: 0 ok; 1 a check failed or a step was refused; 2 bad input in a file (state file, script, catalog); 64 a bad command line (unknown option, --steps 0, a bad --until date, --rate or --grace value), as for `show --now`. See docs/simulation.md.
      """)

  @Argument(help: "The state file (optional with --check: a scratch copy is used).")
  var file: String?

  @Option(help: "Time rate: an SKTestSession.TimeRate name (monthlyRenewalEveryFiveMinutes, realTime …), its raw value, or sandbox-3m|5m|15m|30m|1h.")
  var rate: String?

  @Flag(help: "Jump from event to event as fast as possible until nothing is scheduled (a subscription that keeps renewing runs until Ctrl-C; see --until and --steps).")
  var fast = false

  @Option(help: "Jump from event to event up to this virtual date, then stop there.")
  var until: String?

  @Option(help: "Apply this many events, then stop.")
  var steps: Int?

  @Option(name: .customLong("max-events"), help: ArgumentHelp("With --until: the most events the run may apply (default \(LongStep.confirmAbove)); a run that would apply more is refused before anything is written, saying how many.", valueName: "N"))
  var maxEvents: Int?

  @Option(help: "Run a scenario script against FILE.")
  var scenario: String?

  @Option(help: "Run a scenario script with its expectations on a scratch copy (or FILE); exit 1 on the first mismatch.")
  var check: String?

  @Flag(inversion: .prefixedNo, help: "Every renewal fails with a billing issue (Xcode's \"billing retry on renewal\"); stored in FILE, so --no-fail-renewals turns it off again (as S does in the dashboard).")
  var failRenewals: Bool?

  @Option(help: ArgumentHelp("Billing grace period: \(GraceSetting.acceptedForms).", valueName: "LENGTH"))
  var grace: String?

  @Option(help: "Seed for notification ids and random failures (simulation.failureRate).")
  var seed: UInt64?

  @Option(name: .customLong("id-offset"), help: ArgumentHelp("Added to new transaction ids (simulation.transactionIdOffset, 0…899999999000000; a multiple of 1000000 keeps them readable): files that feed one backend need their own.", valueName: "N"))
  var idOffset: Int64?

  @Flag(name: .customLong("settings-only"), help: "Write --rate, --grace, --fail-renewals or --no-fail-renewals, --seed and --id-offset into FILE and exit without running the clock (a simulator or dashboard already on FILE follows them).")
  var settingsOnly = false

  @Flag(help: "Print each notification as a JSON object per line.")
  var jsonl = false

  @Option(help: "Simulate a population: FILE is a directory; with no state files in it, N subscribers are made first (see --mix). Every subscriber is advanced --months on every core.")
  var population: Int?

  @Option(help: ArgumentHelp("With --population: a JSON object {\"failureRate\": 0.05, \"autoRenewOff\": 0.1} (the defaults).", valueName: "FILE"))
  var mix: String?

  @Option(help: "With --population: how many 30-day months to advance every subscriber.")
  var months = 12

  @Option(name: .customLong("db"), help: ArgumentHelp("With --population instead of DIRECTORY: the subscribers of a team database (exported to a private directory, advanced, stored back; see `subdash db --help`).", valueName: "postgres://USER@HOST/DB"))
  var database: String?

  @Option(name: .customLong("db-file"), help: ArgumentHelp("As --db, the URL read from this private file (mode 600, not a symbolic link). Without DIRECTORY, --db and --db-file, --population uses SUBDASH_DB.", valueName: "PATH"))
  var databaseFile: String?

  @Option(help: ArgumentHelp("Send every notification to URL as an App Store Server Notification V2 while simulating (runs `subdash deliver`; see its --help).", valueName: "URL"))
  var deliver: String?

  @Option(name: .customLong("duplicate-rate"), help: "With --deliver: chance 0…1 that a delivered notification is sent again.")
  var duplicateRate: Double?

  @Option(name: .customLong("reorder-window"), help: ArgumentHelp("With --deliver: hold each notification 0…S seconds so close ones arrive out of order.", valueName: "S"))
  var reorderWindow: Double?

  @Option(name: .customLong("retry-schedule"), help: "With --deliver: production (retries at 1/12/24/48/72 h, scaled) or sandbox (one attempt).")
  var retrySchedule: String?

  @Option(help: ArgumentHelp("With --deliver: the local test CA (default ~/.config/subdash/ca, created on first use).", valueName: "DIR"))
  var ca: String?

  /// What `subdash deliver` is given.
  var deliveryOptions: [String]? {
    guard let deliver else { return nil }
    var o = ["--to", deliver]
    if let duplicateRate { o += ["--duplicate-rate", String(duplicateRate)] }
    if let reorderWindow { o += ["--reorder-window", String(reorderWindow)] }
    if let retrySchedule { o += ["--retry-schedule", retrySchedule] }
    if let ca { o += ["--ca", ca] }
    if let seed { o += ["--seed", String(seed)] }
    return o
  }

  func validate() throws {
    if let deliver, let why = OutboundURL.refusal(deliver) { throw ValidationError("--deliver \(LogText.clip(deliver, limit: 120)): \(why)") }
    if deliver == nil && (duplicateRate != nil || reorderWindow != nil || retrySchedule != nil || ca != nil) {
      throw ValidationError("--duplicate-rate, --reorder-window, --retry-schedule and --ca go with --deliver URL")
    }
    if deliver != nil && (scenario != nil || check != nil) {
      throw ValidationError("--deliver goes with a clock run (the wall clock, --fast, --until or --steps) or --population, not --scenario or --check")
    }
    if let population {
      guard population >= 1 else { throw ValidationError("--population must be 1 or more") }
      guard months >= 1 else { throw ValidationError("--months must be 1 or more") }
      if scenario != nil || check != nil || fast || until != nil || steps != nil || rate != nil || failRenewals != nil || grace != nil {
        throw ValidationError("--population takes --seed, --mix, --months and --deliver only")
      }
      let namesDatabase = database != nil || databaseFile != nil
      if file == nil && !namesDatabase && !DatabaseChoice.inEnvironment { throw ValidationError("missing the population DIRECTORY (or --db URL)") }
      if file != nil && namesDatabase { throw ValidationError("give the population DIRECTORY or --db URL, not both") }
      if database != nil && databaseFile != nil { throw ValidationError("give --db or --db-file, not both") }
      return
    }
    if database != nil || databaseFile != nil { throw ValidationError("--db goes with --population") }
    if mix != nil { throw ValidationError("--mix goes with --population") }
    if scenario != nil && check != nil { throw ValidationError("use either --scenario or --check, not both") }
    let scripted = scenario != nil || check != nil
    if scripted && (fast || until != nil || steps != nil || rate != nil || failRenewals != nil || grace != nil || seed != nil || idOffset != nil) {
      throw ValidationError("--scenario and --check take their settings from the script (set rate …, set grace …); drop the other flags")
    }
    if check == nil && file == nil { throw ValidationError("missing the state FILE") }
    if settingsOnly {
      if fast || until != nil || steps != nil || deliver != nil || jsonl {
        throw ValidationError("--settings-only writes settings and exits; drop --fast, --until, --steps, --deliver and --jsonl")
      }
      if rate == nil && grace == nil && failRenewals == nil && seed == nil && idOffset == nil {
        throw ValidationError("--settings-only needs a setting: --rate, --grace, --fail-renewals, --no-fail-renewals, --seed or --id-offset")
      }
    }
    if let steps, steps < 1 { throw ValidationError("--steps must be 1 or more") }
    if let maxEvents, maxEvents < 1 { throw ValidationError("--max-events must be 1 or more") }
    if maxEvents != nil && until == nil { throw ValidationError("--max-events goes with --until") }
    if fast && (until != nil || steps != nil) { throw ValidationError("--fast runs until nothing is scheduled; use it without --until/--steps") }
    // A bad date is a bad command line: 64, the same as `show --now`.
    if let until {
      do { _ = try Format.parseDate(until) } catch { throw ValidationError("--until: \(error.description)") }
    }
    if let rate {
      do { _ = try SimulationRate(parsing: rate) } catch { throw ValidationError("--rate: \(error)") }
    }
    if let grace {
      do { _ = try GraceSetting(parsing: grace) } catch { throw ValidationError("--grace: \(error.message)") }
    }
  }

  func run() throws {
    var signals = SimStopSignals()
    let out = SimulateOutput(jsonl: jsonl)
    if let script = check ?? scenario {
      throw ExitCode(SimulateScenario(script: script, file: file, checkOnly: check != nil, output: out).run(&signals))
    }
    if let population {
      do {
        if let database = try DatabaseChoice.url(option: self.database, file: databaseFile, readEnvironment: file == nil) {
          try populationInDatabase(population, url: database, output: out)
        } else {
          _ = try runPopulation(population, in: file!, shownAs: file!, output: out)
        }
      } catch let e as SimulateInputError {
        LineOut.stderr("subdash: \(e.message)")
        throw ExitCode(2)
      }
      return
    }
    let path = file!
    var delivery: DeliveryChild?
    do {
      // Before the flags are written: a refused run writes nothing, its settings included.
      if let until, let limit = try? Format.parseDate(until) {
        try SimulateLongRun.check(path: path, settings: flagSettings(), until: limit, steps: steps, maxEvents: maxEvents,
                                  opening: Instant(ms: SimWallClock.now()))
      }
      try applyFlags(to: path)
      if settingsOnly {
        let written = try flagSettings().map { (key, value) -> String in
          switch value {
          case .bool(let b): return "\(key) \(b)"
          case .number(let n): return "\(key) \(n)"
          case .string(let t): return "\(key) \(t)"
          default: return key
          }
        }
        LineOut.stdout("\(LogText.clip(path, limit: 200)): simulation settings written: " + written.joined(separator: ", "))
        return
      }
      if let options = deliveryOptions { delivery = try DeliveryChild.start(options, file: path) }
      defer {
        if let status = delivery?.finish(), status != 0, status < 128 { LineOut.stderr("subdash: subdash deliver exited with status \(status)") }
      }
      var runner = SimulateClock(path: path, output: out)
      if fast || until != nil || steps != nil {
        let limit = try until.map { (text) throws -> Instant in
          do { return try Format.parseDate(text) } catch { throw SimulateInputError("--until: \(error)") }
        }
        try runner.jump(until: limit, steps: steps, signals: &signals)
      } else {
        try runner.wallClock(signals: &signals)
      }
    } catch let e as SimulateInputError {
      LineOut.stderr("subdash: \(e.message)")
      throw ExitCode(2)
    }
  }

  /// Makes N subscribers when `directory` has none, advances every one `--months`, prints the
  /// tally under `shownAs`, then sends the run's notifications when `--deliver` was given
  /// (`subdash deliver --drain DIR`, now that every file has them).
  func runPopulation(_ population: Int, in directory: String, shownAs: String, output out: SimulateOutput) throws -> SimulatePopulation.Summary {
    let populationMix = try mix.map(SimulatePopulation.Mix.read) ?? .init()
    try SimulatePopulation.checkProducts(populationMix, mixPath: mix ?? "--mix")
    var run = SimulatePopulation(directory: directory, count: population, seed: seed ?? 1, mix: populationMix, months: months)
    run.deliverTo = deliver
    let started = WallClock.now()
    let summary = try run.run()
    out.population(summary, directory: shownAs, seconds: Double((WallClock.now() - started).ms) / 1000)
    if !summary.failures.isEmpty { throw ExitCode(2) }
    if let options = deliveryOptions, try DeliveryChild.drain(options, directory: directory) != 0 { throw ExitCode(2) }
    return summary
  }

  /// `--population N --db URL`: the database's subscribers (none: N new ones) are exported into a
  /// private directory by `subdash-db`, advanced there like any population (deliveries sent from
  /// there, so the database keeps each delivery's attempts), and stored back in one transaction,
  /// which every list on the database sees at once (LISTEN/NOTIFY). The directory is removed.
  func populationInDatabase(_ population: Int, url: String, output out: SimulateOutput) throws {
    guard let dir = TemporaryDirectory.make("subdash-population") else {
      throw badInput("cannot create a temporary directory: \(String(cString: strerror(errno)))")
    }
    defer { TemporaryDirectory.remove(dir) }
    func database(_ args: [String]) throws {
      // Its one-line error (a refused connection, a bad URL) goes straight to our stderr.
      let binary = try Fetch.helper("subdash-db", for: "--db")
      // The URL (it may hold a password) in the child's environment, never its arguments.
      switch ChildProcess.spawn([binary] + args, redirects: [0: nil, 1: nil, 2: 2], environment: [DatabaseURLSource.variable: url]) {
      case .failure(let f): throw badInput("cannot run \(binary): \(f.text) (reinstall with \(ExecutablePath.installCommand))")
      case .success(let pid):
        let status = ChildProcess.wait(pid)
        if status != 0 { throw ExitCode(status) }
      }
    }
    try database(["export", dir])
    let summary = try runPopulation(population, in: dir, shownAs: List.withoutPassword(url), output: out)
    try database(["import", dir])
    LineOut.stdout("stored \(counted(summary.subscribers, "subscriber")) in \(List.withoutPassword(url))")
  }

  /// Writes --rate, --grace, --fail-renewals, --seed and --id-offset into the file's simulation settings, so
  /// dashboards on the same file apply the same rules.
  func applyFlags(to path: String) throws {
    let values = try flagSettings()
    guard !values.isEmpty else { return }
    let (store, name) = DirectorySubscriberStore.holding(path)
    _ = try store.update(existing: name, wait: .bounded) { (s) throws(ActionError) in .saving(try Simulator.setSettings(s, values).get()) }
      .written(refusal: { SimulateInputError(refusal: $0, in: path) }, storage: SimulateInputError.init(storage:))
  }

  /// The settings --rate, --grace, --fail-renewals, --seed and --id-offset stand for.
  func flagSettings() throws -> [(key: String, value: JSON)] {
    // Raw values, checked here and again as a whole by the model before anything is written.
    var values: [(key: String, value: JSON)] = []
    if let rate {
      do { _ = try SimulationRate(parsing: rate) } catch { throw SimulateInputError("--rate: \(error)") }
      values.append(("timeRate", .string(rate)))
    }
    if let grace {
      let g: GraceSetting
      do { g = try GraceSetting(parsing: grace) } catch { throw SimulateInputError("--grace: \(error.message)") }
      values.append(("gracePeriod", g.json))
    }
    if let failRenewals { values.append(("failRenewals", .bool(failRenewals))) }
    if let seed { values.append(("seed", .int(Int64(bitPattern: seed)))) }
    if let idOffset { values.append(("transactionIdOffset", .int(idOffset))) }
    return values
  }
}

/// Bad input to `subdash simulate`: printed as one line, exit code 2.
struct SimulateInputError: Error {
  var message: String
  init(_ message: String) { self.message = message }
  /// The file could not be locked, read or written: its own one-line error.
  init(storage: StateFileError) { message = storage.description }
  /// A step the simulator refused; a setting the file holds is named with the file, as every
  /// other bad-input error is.
  init(refusal: ActionError, in path: String) {
    if case .badSetting = refusal { message = "\(path): \(refusal.message)" } else { message = refusal.message }
  }
}
