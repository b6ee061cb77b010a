import ArgumentParser
import DashModel
import DashRuntime
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SimulationRuns
import CoreValues

/// `subdash simulate --population N DIR`: the command's side of a population run. The rules (the
/// mix, each member's ids, seed and start, the events and their moments) are the model's
/// (`Population`); here the mix file is read, the members are made from the demo subscriber, and
/// every member is advanced on every core. Members are independent and each draws only from its
/// own seed, so the same seed gives byte-identical files whatever the thread scheduling.
struct SimulatePopulation {
  typealias Mix = PopulationMix

  let directory: String
  let count: Int
  let seed: UInt64
  let mix: Mix
  let months: Int
  /// Where each subscriber's notifications from this run go (`--deliver`); `subdash deliver`
  /// drains the directory afterwards.
  var deliverTo: String? = nil

  struct Summary {
    var subscribers = 0
    var created = 0
    var notifications: [String: Int] = [:]
    var subscriberMonths = 0.0
    var failures: [String] = []
    /// Mix events the subscriber's state did not allow when they came (a refund after expiry).
    var skipped = 0
    /// The cancel page each member who turned auto-renew off saw (issue 21 §2).
    var cancelPages: [Population.RetentionShown] = []
  }

  /// Set when the directory is a temporary one its caller removes (the demo population): a
  /// stopped run then says so by this name, with nothing to start over.
  var temporaryName: String? = nil

  /// Makes the members when the directory has none, then advances every one. Ctrl-C or SIGTERM
  /// stops between two members (never inside a file): a population this run was making is
  /// removed, files the directory held before stay whole, and the exit status is 128 + the signal.
  func run() throws -> Summary {
    var made = Population(directory: directory, count: count, seed: seed, mix: mix, months: months,
                          template: DemoState.json, deliverTo: deliverTo)
    // A member who turns auto-renew off goes through the cancel page as the dashboard's key and a
    // scenario's cancel-page do: the realtime request to the developer's server, Apple's limit.
    made.retentionAsker = { ScenarioRetentionAsker.ask(statePath: $0) }
    let population = made
    let before = DirectoryBefore(directory)
    let interrupt = InterruptCheck()
    var summary = Summary()
    var whole = 0, cutShort = false
    do {
      if try population.subscribers().isEmpty {
        let making = PopulationProgress("making", total: count, onStop: "stops and removes them")
        summary.cancelPages = try population.create(keepGoing: { done in
          if done > 0 { making.step() }
          whole = done
          cutShort = interrupt.stopped
          return !cutShort
        })
        making.clear()
        // Unless a member was refused its turn, every one was made (a signal may follow the last).
        if !cutShort { whole = count }
        summary.created = count
      }
    } catch { throw SimulateInputError(error.message) }
    if let signal = interrupt.signal {
      throw stopped(signal, before: before, "after making \(whole) of \(counted(count, "subscriber"))")
    }
    let names: [String]
    do { names = try population.subscribers() } catch { throw SimulateInputError(error.message) }
    summary.subscribers = names.count
    // Each worker takes every n-th member and keeps its own tally; the tallies are added at the end.
    let workers = max(1, min(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), names.count))
    let tallies = Tallies(count: workers)
    let advancing = PopulationProgress("advancing", total: names.count,
                                       onStop: summary.created > 0 ? "stops and removes them" : "stops between two subscribers, each file whole")
    DispatchQueue.concurrentPerform(iterations: workers) { w in
      var i = w
      while i < names.count, !interrupt.stopped {
        tallies.record(w, population.advance(names[i]))
        advancing.step()
        i += workers
      }
    }
    advancing.clear()
    if let signal = interrupt.signal {
      let done = "\(advancing.done) of \(counted(names.count, "subscriber"))"
      if summary.created > 0 { throw stopped(signal, before: before, "after making \(counted(names.count, "subscriber")) and advancing \(done)") }
      let others = names.count - advancing.done
      LineOut.stderr("subdash: stopped (\(InterruptCheck.name(signal))) after advancing \(done) in \(directory) by \(counted(months, "month")); "
                     + "each file is whole, the other \(others) \(others == 1 ? "was" : "were") not advanced this run")
      throw ExitCode(InterruptCheck.exitStatus(signal))
    }
    interrupt.finish()
    var total = Population.Tally()
    for t in tallies.all { total.add(t) }
    summary.subscriberMonths = total.subscriberMonths
    summary.failures = total.failures
    summary.skipped = total.skipped
    summary.notifications = total.notifications
    return summary
  }

  /// A population this run was making is half made: every file the run added is removed, so the
  /// directory is as it was and the same command starts over.
  private func stopped(_ signal: Int32, before: DirectoryBefore, _ progress: String) -> ExitCode {
    before.removeAdded()
    let removed = temporaryName.map { "removed \($0)" }
      ?? (before.existed ? "removed them, \(directory) is as it was" : "removed them and \(directory), which this run made") + " (run the command again to start over)"
    LineOut.stderr("subdash: stopped (\(InterruptCheck.name(signal))) \(progress); \(removed)")
    return ExitCode(InterruptCheck.exitStatus(signal))
  }

  /// One slot per worker: each worker writes only its own.
  final class Tallies: @unchecked Sendable {
    private var slots: [Population.Tally]
    init(count: Int) { slots = Array(repeating: Population.Tally(), count: count) }
    func record(_ worker: Int, _ t: Population.Tally) { slots[worker].add(t) }
    var all: [Population.Tally] { slots }
  }

  /// Refuses a mix naming a product the demo catalog lacks, before any file is made.
  static func checkProducts(_ mix: Mix, mixPath: String) throws {
    do { try Population.checkProducts(mix, template: DemoState.json, mixPath: mixPath) } catch { throw SimulateInputError(error.message) }
  }
}

extension PopulationMix {
  /// `--mix FILE`.
  static func read(_ path: String) throws -> PopulationMix {
    guard let bytes = readInput(path) else { throw SimulateInputError("\(path): cannot read the mix") }
    do { return try PopulationMix.parse(bytes, file: path) } catch { throw SimulateInputError(error.message) }
  }
}
