import ArgumentParser
import DashModel
import Foundation
import CoreValues
import SubscriberStorage
import SubscriberImport

/// The write path's cost per event as the history grows: the journal keeps each save the size of
/// the new lines plus a constant-size document, so these numbers should not grow with N.
struct Growth: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Time one renewal saved with StateFile.update, one imported as listen applies it, and a dashboard reload, against journals of N entries.")

  @OptionGroup var location: BenchDirectory
  @Option(help: "Comma-separated journal sizes (entries already in the journal).")
  var sizes = "100,1000,10000,50000"
  @Option(help: "Saved events per size; the table shows median, 90th percentile and maximum.")
  var events = 30

  func run() throws {
    print(Machine.describe())
    print("""

      save = StateFile.update appending one renewal transaction + one DID_RENEW notification (lock, re-read, journal append
      + fsync, atomic rename + fsync). import = Importer.write of one new renewal transaction (merged before the timer), the
      path `listen` and `import` take: lock, re-read, what the journal already holds looked up, append, rename.
      reload = StateFile.load + Lifecycle.derive + StateFile.recentNotifications(limit: 50).

      | journal entries | journal | document | save median | save p90 | save max | import median | import max | reload median | reload max |
      |---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
      """)
    for n in try parseSizes(sizes) {
      let dir = "\(location.dir)/growth-\(n)"
      let path = try JournalSeed.write(entries: n, in: dir)
      let clock = ContinuousClock()
      var saves: [Double] = [], imports: [Double] = [], reloads: [Double] = []
      for _ in 0..<events {
        var failure: StateFileError?
        saves.append(clock.measure {
          do throws(StateFileError) { try StateFile.update(path: path, JournalSeed.renew) } catch { failure = error }
        }.seconds)
        // One more renewal, as an import brings it: a transaction the journal does not hold yet.
        do {
          let k = try StateFile.load(path: path).historySummary.transactionCount
          let input = ImportInput(label: "renewal-\(k).json", bytes: JSONWriter.write(HistoryGenerator.transaction(k).json))
          let merged = try Importer.merge(inputs: [input], options: .init())
          imports.append(clock.measure {
            do throws(StateFileError) { _ = try Importer.write(merged, to: path, catalog: nil) } catch { failure = error }
          }.seconds)
        }
        reloads.append(clock.measure {
          do throws(StateFileError) {
            let state = try StateFile.load(path: path)
            _ = Lifecycle.derive(state, at: JournalSeed.now(state))
            _ = try StateFile.recentNotifications(state, statePath: path, limit: 50)
          } catch { failure = error }
        }.seconds)
        if let failure { throw ValidationError(failure.description) }
      }
      let journal = StateFiles.size(dir + "/" + Journal.defaultName(for: "state.json"))
      print("| \(n) | \(Stats.bytes(journal)) | \(Stats.bytes(StateFiles.size(path))) | \(Stats.time(Stats.median(saves))) | \(Stats.time(Stats.percentile(saves, 0.9))) | \(Stats.time(saves.max() ?? .nan)) | \(Stats.time(Stats.median(imports))) | \(Stats.time(imports.max() ?? .nan)) | \(Stats.time(Stats.median(reloads))) | \(Stats.time(reloads.max() ?? .nan)) |")
    }
  }
}

/// A state file whose journal already holds N entries (renewal transactions and their
/// notifications, alternating), written through the public encoders.
enum JournalSeed {
  static func write(entries n: Int, in dir: String) throws -> String {
    try? FileManager.default.removeItem(atPath: dir)
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try Data(HistoryGenerator.storekit.utf8).write(to: URL(fileURLWithPath: "\(dir)/\(HistoryGenerator.catalogName)"))
    let path = "\(dir)/state.json"
    var journal = JournalInfo(file: Journal.defaultName(for: "state.json"))
    var entries: [Journal.Entry] = []
    for k in 0..<(n + 1) / 2 {
      let t = HistoryGenerator.transaction(k)
      journal.summary.add(t)
      entries.append(.transaction(t))
      if entries.count < n {
        entries.append(.notification(HistoryGenerator.notification(k)))
        journal.summary.notificationCount += 1
      }
    }
    let bytes = Journal.encode(entries)
    try Data(bytes).write(to: URL(fileURLWithPath: "\(dir)/\(journal.file)"))
    journal.committedBytes = Int64(bytes.count)
    let last = HistoryGenerator.transaction(max(0, (n + 1) / 2 - 1))
    let document = JSON.object(JSONObject([
      ("format", .string(DashModelInfo.stateFormat)),
      ("simulation", .object(JSONObject([("now", .double(HistoryGenerator.now(after: last).ms))]))),
      ("subscriber", .object(JSONObject([
        ("latestTransaction", last.json),
        ("renewalInfo", HistoryGenerator.renewalInfo(after: last).json),
      ]))),
      ("catalogFile", .string(HistoryGenerator.catalogName)),
      ("journal", journal.json),
    ]))
    try Data(JSONWriter.write(document)).write(to: URL(fileURLWithPath: path))
    return path
  }

  static func now(_ state: SubscriptionState) -> Instant {
    guard let last = state.subscriber.latestTransaction else { return HistoryGenerator.start }
    return HistoryGenerator.now(after: last)
  }

  /// The next renewal: a new latest transaction, the renewal info moved on, a DID_RENEW notification.
  static func renew(_ state: SubscriptionState) -> Change {
    let k = state.historySummary.transactionCount
    let t = HistoryGenerator.transaction(k)
    var next = state
    next.subscriber.latestTransaction = t
    next.subscriber.renewalInfo = HistoryGenerator.renewalInfo(after: t)
    return Change(state: next, transactions: [t], notifications: [HistoryGenerator.notification(k)],
                  message: "renewed Family Monthly for 7.99 USD")
  }
}

func readBytes(_ path: String) throws -> [UInt8] {
  guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("cannot read \(path)") }
  return Array(data)
}
