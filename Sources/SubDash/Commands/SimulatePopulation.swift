import DashModel
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

  func run() throws -> Summary {
    var made = Population(directory: directory, count: count, seed: seed, mix: mix, months: months,
                          template: DemoState.json, deliverTo: deliverTo)
    // A member who turns auto-renew off goes through the cancel page as the dashboard's key and a
    // scenario's cancel-page do: the realtime request to the developer's server, Apple's limit.
    made.retentionAsker = { ScenarioRetentionAsker.ask(statePath: $0) }
    let population = made
    var summary = Summary()
    do {
      if try population.subscribers().isEmpty {
        summary.cancelPages = try population.create()
        summary.created = count
      }
    } catch { throw SimulateInputError(error.message) }
    let names: [String]
    do { names = try population.subscribers() } catch { throw SimulateInputError(error.message) }
    summary.subscribers = names.count
    // Each worker takes every n-th member and keeps its own tally; the tallies are added at the end.
    let workers = max(1, min(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), names.count))
    let tallies = Tallies(count: workers)
    DispatchQueue.concurrentPerform(iterations: workers) { w in
      var i = w
      while i < names.count {
        tallies.record(w, population.advance(names[i]))
        i += workers
      }
    }
    var total = Population.Tally()
    for t in tallies.all { total.add(t) }
    summary.subscriberMonths = total.subscriberMonths
    summary.failures = total.failures
    summary.skipped = total.skipped
    summary.notifications = total.notifications
    return summary
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
