import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues

/// The refresh key `l`: offered only on files `subdash fetch` wrote (they carry `fetchedFrom`).
@Suite struct RefetchKeyTests {
  static let fetched = Scenarios.active.with(name: "fetched") { state in
    FetchOrigin(transactionId: "2000000500", environment: "Production", baseURL: "http://127.0.0.1:1",
                fetchedDate: Instant(ms: 1_795_000_000_000)).write(into: &state.document)
  }

  @Test("l on a fetched file says fetching… and asks the runtime to fetch again")
  func refreshesFetchedFile() {
    let vm = Self.fetched.viewModel()
    var ui = UIState()
    #expect(reduce(&ui, .keyPressed(.char("l")), context: vm) == [.refetch])
    #expect(ui.status == StatusLine("fetching…"))
    // The fetch wrote the file: the reducer asks for a reload, as after any write.
    #expect(reduce(&ui, .actionSucceeded("refreshed: fetched.json: updated: 1 new transactions"), context: vm) == [.reload])
    #expect(ui.status == StatusLine("refreshed: fetched.json: updated: 1 new transactions"))
    let frame = render(vm, UIState(), width: 120, height: 40)
    #expect(frame.textDump.contains("l refresh"))
  }

  @Test("l on a hand-made file explains why not, and neither footer nor help offers it")
  func notOfferedOtherwise() {
    let vm = Scenarios.active.viewModel()
    var ui = UIState()
    #expect(reduce(&ui, .keyPressed(.char("l")), context: vm) == [])
    #expect(ui.status == .error("refresh: this file was not fetched from the App Store Server API (see subdash fetch)"))
    #expect(!render(vm, UIState(), width: 120, height: 40).textDump.contains("l refresh"))
    #expect(!render(vm, UIState(mode: .help(offset: 0)), width: 120, height: 60).textDump.contains("fetch again"))
    #expect(render(Self.fetched.viewModel(), UIState(mode: .help(offset: 0)), width: 120, height: 60).textDump.contains("fetch again"))
  }

  @Test("read-only refuses the refresh: it would write the file")
  func readOnly() {
    let vm = Self.fetched.viewModel(options: DisplayOptions(readOnly: true))
    var ui = UIState()
    #expect(reduce(&ui, .keyPressed(.char("l")), context: vm) == [])
    #expect(ui.status == .error("read-only: refresh disabled (started with --read-only)"))
  }
}
