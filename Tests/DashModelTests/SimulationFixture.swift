import Foundation
import Testing

@testable import DashModel
@testable import CoreValues

/// A subscriber driven through the simulation engine in memory, against the example catalog in
/// Examples/scenarios/pass.storekit:
///
///   group Pass   level 1  pass.premium.monthly  P1M  9.99  free week intro, code "Spring 2026",
///                                                            two win-back offers
///                level 1  pass.premium.annual   P1Y 99.99
///                level 2  pass.basic.monthly    P1M  4.99
///                level 2  pass.basic.weekly     P1W  1.99
///
/// Each change is folded in the way `StateFile.commit` folds it (journal summary counts), so ids
/// and win-back paid time behave as they do on disk; file-level behaviour has its own tests.
struct Sim {
  var state: SubscriptionState
  /// Every notification so far, in order.
  var log: [NotificationRecord] = []

  static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let scenariosDir = repoRoot.appendingPathComponent("Examples/scenarios").path
  static let catalogPath = scenariosDir + "/pass.storekit"

  static func loadCatalog() -> Catalog {
    let bytes = [UInt8](FileManager.default.contents(atPath: catalogPath)!)
    return try! StoreKitReader.read(ObjectReader(JSONParser.parse(bytes), at: .root))
  }

  /// A new subscriber at `start`, with `settings` as the document's `simulation` object.
  init(start: String = "2026-01-01T00:00:00Z", settings: [(String, JSON)] = [], catalog edit: (inout Catalog) -> Void = { _ in }) {
    var catalog = Self.loadCatalog()
    edit(&catalog)
    let doc = JSONObject([
      ("format", .string("subdash-state/1")), ("catalogFile", .string("pass.storekit")),
      ("subscriber", .object(JSONObject())),
      ("simulation", .object(JSONObject([("now", .double(Self.at(start).ms))] + settings))),
    ])
    let document = try! StateDocument(ObjectReader(.object(doc), at: .root))
    state = SubscriptionState(document: document, catalog: catalog)
  }

  static func at(_ text: String) -> Instant { try! Format.parseDate(text) }

  // MARK: Steps

  mutating func commit(_ change: Change) {
    var s = change.state
    var journal = s.document.journal ?? JournalInfo(file: "memory.journal.jsonl")
    for t in change.transactions { journal.summary.add(t) }
    journal.summary.notificationCount += change.notifications.count
    s.document.journal = journal
    state = s
    log += change.notifications
  }

  mutating func commit(_ result: Result<Change, ActionError>, sourceLocation: SourceLocation = #_sourceLocation) {
    switch result {
    case .success(let c): commit(c)
    case .failure(let e): Issue.record("refused: \(e.message)", sourceLocation: sourceLocation)
    }
  }

  mutating func buy(_ product: String, family: Bool = false, intro: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
    commit(Simulator.buy(PurchaseRequest(productId: product, familyShared: family, useIntroductoryOffer: intro), state: state, at: now), sourceLocation: sourceLocation)
  }

  mutating func run(_ cmd: SimCommand, sourceLocation: SourceLocation = #_sourceLocation) {
    commit(Simulator.apply(cmd, to: state, at: now), sourceLocation: sourceLocation)
  }

  /// The refusal of `cmd`, or nil (and a recorded issue) when it was applied.
  mutating func refusal(_ cmd: SimCommand) -> ActionError? {
    switch Simulator.apply(cmd, to: state, at: now) {
    case .success(let c): commit(c); return nil
    case .failure(let e): return e
    }
  }

  mutating func plan(_ action: PlanAction, sourceLocation: SourceLocation = #_sourceLocation) {
    commit(Actions.apply(action, to: state, at: now, timing: try! Simulator.rules(state).rate), sourceLocation: sourceLocation)
    commit(try! Simulator.advance(state, to: now))
  }

  mutating func advance(to text: String) { commit(try! Simulator.advance(state, to: Self.at(text))) }
  mutating func advance(to instant: Instant) { commit(try! Simulator.advance(state, to: instant)) }
  mutating func advance(by span: Span) { commit(try! Simulator.advance(state, to: now + span)) }
  mutating func next() { commit(try! Simulator.advanceToNextEvent(state)) }

  mutating func configure(_ edit: (inout SimulationSettings) -> Void) {
    commit(Simulator.configure(state, edit))
  }

  // MARK: Looking

  var now: Instant { try! Simulator.clock(state) }
  var latest: TransactionPayload { state.subscriber.latestTransaction! }
  var info: RenewalInfoPayload { state.subscriber.renewalInfo! }
  var settings: SimulationSettings { try! Simulator.settings(state) }
  var status: SubscriptionStatus? { Lifecycle.status(of: state.subscriber, at: now).status }
  var nextEvent: SimEvent? { try! Simulator.nextEvent(state) }

  /// "TYPE / SUBTYPE" of every notification so far.
  var labels: [String] { log.map(\.label) }
  var statuses: [Int?] { log.map { $0.status?.rawValue } }

  /// Notifications from index `from` on, as labels (for "what did this step send").
  func labels(since from: Int) -> [String] { Array(log[from...].map(\.label)) }
}
