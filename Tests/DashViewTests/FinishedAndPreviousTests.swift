import Foundation
import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues
@testable import SimulationRuns

/// Finish Transaction calls (`serve` records them) and Apple's previousOriginalTransactionId are in
/// `show --json`; the dashboard's transactions view (`t`) and plain `show` say them too.
@Suite struct FinishedAndPreviousTests {
  /// active.json with its two latest transactions finished by the developer's server, and the
  /// subscription it replaced named in the latest transaction.
  static func scenario() -> Scenario {
    let base = Scenarios.example("active")
    let ids = ((try? base.state.subscriber.transactions.typed()) ?? []).compactMap(\.transactionId)
    return base.with(name: "active") { state in
      let finished: [JSON] = [ids.last, ids.dropLast().last].compactMap { $0 }.enumerated().map { n, id in
        .object(JSONObject([("transactionId", .string(id)), ("finishedDate", .double(base.now.ms - Double(n) * 3_600_000))]))
      }
      state.document.source[FinishedTransactions.key] = .array(finished)
      state.subscriber.latestTransaction?.source[PreviousOriginalTransaction.key] = .string("2000000700000001")
    }
  }

  static func viewModel() -> ViewModel { StoryRenderTests.viewModel(scenario()) }

  @Test func theTransactionsViewMarksFinishedTransactionsAndNamesThePreviousSubscription() {
    let vm = Self.viewModel()
    let ui = StoryRenderTests.ui(vm, width: 150, height: 40, keys: [.char("t")])
    let frame = render(vm, ui, width: 150, height: 40)
    let text = frame.textDump
    #expect(text.contains("replaces subscription 2000000700000001 (previousOriginalTransactionId)"))
    #expect(text.components(separatedBy: "finished ").count - 1 == 2)
    assertSnapshot(frame, named: "transactions-finished-previous-150x40")
    assertSnapshot(render(vm, StoryRenderTests.ui(vm, width: 80, height: 24, keys: [.char("t")]), width: 80, height: 24),
                   named: "transactions-finished-previous-80x24")
  }

  @Test func plainShowSaysThemToo() {
    let vm = Self.viewModel()
    let lines = PlainReport.lines(vm)
    #expect(lines[1].contains("previousOriginalTransactionId 2000000700000001"))
    let section = try? #require(lines.firstIndex(of: "== Finished by the developer's server (Finish Transaction) =="))
    #expect(section != nil)
    if let section {
      let earlier = Format.dateShort(Self.scenario().now - .hours(1), seconds: vm.clockShowsSeconds, year: true)
      #expect(lines[section + 2].hasSuffix("finished \(earlier)"))
    }
    // Without either, nothing is said.
    let plain = PlainReport.lines(StoryRenderTests.viewModel(Scenarios.example("active"))).joined(separator: "\n")
    #expect(!plain.contains("previousOriginalTransactionId") && !plain.contains("Finish Transaction"))
  }
}
