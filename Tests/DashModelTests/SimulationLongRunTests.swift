import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// Long runs: one event costs the same after ten renewals or ten million, because the engine
/// reads `HistorySummary` totals and never the history itself.
@Suite struct SimulationLongRunTests {
  /// A journal of a gigabyte of NUL bytes (a sparse file, so it costs no disk) vouched for by the
  /// document: any code that read the history would fail on the first byte or take seconds.
  @Test func eventsNeverReadTheHistory() throws {
    let dir = TempDir()
    let path = try Sim.subscribedFile(in: dir)
    var state = try StateFile.load(path: path)
    // A young subscriber's history is inline; this one has a long one in its journal.
    var journal = state.document.journal ?? JournalInfo(file: "state.journal.jsonl")
    let journalPath = dir.file(journal.file)
    #expect(FileManager.default.createFile(atPath: journalPath, contents: nil))
    let huge: Int64 = 1 << 30
    #expect(truncate(journalPath, off_t(huge)) == 0)
    journal.committedBytes = huge
    // Ten million entries in all: the journal's and the inline ones of the purchase.
    journal.summary.transactionCount = 10_000_000 - state.subscriber.transactions.count
    journal.summary.notificationCount = 10_000_000 - state.subscriber.notifications.count
    state.document.journal = journal
    try AtomicWriter.write(JSONWriter.write(state.document.json), to: path)

    let started = Date()
    for _ in 0..<24 {
      try StateFile.update(path: path) { (s) throws(StateFileError) -> Change in
        do throws(ActionError) { return try Simulator.advanceToNextEvent(s) } catch { throw StateFileError(file: "state.json", message: error.message) }
      }
    }
    let elapsed = Date().timeIntervalSince(started)
    let final = try StateFile.load(path: path)
    #expect(final.subscriber.latestTransaction?.transactionId == Identifiers.transactionId(sequence: 10_000_023))
    #expect(final.historySummary.notificationCount == 10_000_024)
    #expect(final.document.journal!.committedBytes > huge)
    // Generous: 24 locked, fsynced steps take well under a second; reading 1 GiB would not.
    #expect(elapsed < 20)
    // The newest entries are still readable from the end of the journal.
    let tail = try Journal.tail(path: journalPath, committedBytes: final.document.journal!.committedBytes, limit: 2)
    #expect(tail.count == 2)
  }

  @Test func aStepsWorkDoesNotGrowWithTheHistory() throws {
    // The same renewal on a subscriber with 3 or 3,000 renewals behind it produces the same
    // change apart from the ids numbered from the totals.
    func renewal(after n: Int) -> Change {
      var sim = Sim(settings: [("timeRate", .string("oneRenewalEveryTwoSeconds"))])
      sim.buy("pass.premium.monthly")
      sim.advance(by: .seconds(Double(2 * n)))
      return try! Simulator.advanceToNextEvent(sim.state)
    }
    let short = renewal(after: 3), long = renewal(after: 3_000)
    #expect(short.transactions.count == 1 && long.transactions.count == 1)
    #expect(short.notifications.map(\.label) == long.notifications.map(\.label))
    #expect(long.transactions[0].transactionId == Identifiers.transactionId(sequence: 3_001))
  }
}
