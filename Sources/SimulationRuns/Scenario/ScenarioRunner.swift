import CoreValues
import DashModel
import SubscriberStorage
import RetentionMessaging
/// Why a scenario run stopped early. `line` is the script line; the description is one line.
public enum ScenarioFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// An expectation did not hold.
  case mismatch(file: String, line: Int, text: String, expected: String, actual: String)
  /// A step was refused and the script did not `expect error`.
  case refused(file: String, line: Int, text: String, message: String)
  /// The state file or the scenario's inputs could not be read or written.
  case file(StateFileError)
  /// The script cannot run as written (no starting file, setup after steps …).
  case setup(file: String, line: Int, message: String)
  /// The state is Production data, which simulation never touches (not even to check it).
  case productionData

  public var description: String {
    switch self {
    case .mismatch(let f, let l, let text, let expected, let actual):
      return "\(f):\(l): mismatch in \"\(text)\": expected \(expected), found \(actual)"
    case .refused(let f, let l, let text, let message):
      return "\(f):\(l): \"\(text)\" was refused: \(message)"
    case .file(let e):
      return e.description
    case .setup(let f, let l, let message):
      return "\(f):\(l): \(message)"
    case .productionData:
      return ActionError.productionData("Simulation").message
    }
  }

  /// 1 for a failed check, 2 for bad input (the CLI's exit codes).
  public var exitCode: Int32 {
    switch self {
    case .mismatch, .refused: return 1
    case .file, .setup, .productionData: return 2
    }
  }
}

public struct ScenarioReport: Equatable, Sendable {
  public var steps = 0
  public var expectations = 0
  public var notifications = 0
}

/// Runs a scenario step by step against a state file. Each step is one `StateFile.update`, so
/// a dashboard open on the same file sees every step and its own key presses are kept.
public struct ScenarioRunner {
  public var scenario: Scenario
  /// Directory the script's relative paths (catalog, state) are resolved in.
  public var scriptDirectory: String
  public var store: ScenarioStore
  /// Called for every notification as it is emitted.
  public var onNotification: (NotificationRecord) -> Void
  /// Asks the realtime URL for the customer of a state file (`subdash-retention`); nil: the
  /// default message only (ScenarioRetention).
  public var retentionAsker: ((String) -> Result<RetentionOutcome, RetentionSetupError>)?
  /// Called for each family member a purchaser's extension moved (or left, with why), with its
  /// new renewal date, for the scenario's output.
  public var onFamilyMember: (FamilyExtension.MemberOutcome) -> Void = { _ in }

  public init(scenario: Scenario, scriptDirectory: String, statePath: String, onNotification: @escaping (NotificationRecord) -> Void = { _ in }) {
    self.scenario = scenario
    self.scriptDirectory = scriptDirectory
    self.store = ScenarioStore(path: statePath)
    self.onNotification = onNotification
  }

  struct Run {
    var emitted: [NotificationRecord] = []
    var checked = 0
    var report = ScenarioReport()
    var state: SubscriptionState?
    /// What the last `cancel-page` showed.
    var retention: RetentionOutcome?
  }

  public func run() throws(ScenarioFailure) -> ScenarioReport {
    var run = Run()
    let lines = scenario.lines
    var i = 0
    var started = false
    while i < lines.count {
      let line = lines[i]
      i += 1
      if case .setup(let setup) = line.step {
        guard !started else {
          throw .setup(file: scenario.fileName, line: line.number, message: "catalog/state must come before every other step")
        }
        do { try ScenarioWorkspace.create(setup, scriptDirectory: scriptDirectory, statePath: store.path) } catch { throw .file(error) }
        continue
      }
      started = true
      let current: SubscriptionState
      if let loaded = run.state {
        current = loaded
      } else {
        do { current = try store.load() } catch { throw .file(error) }
        // Every simulate mode refuses Production the same way (exit 2), before any step.
        do { try Simulator.requireSimulatable(current) } catch { throw .productionData }
        run.state = current
      }
      if case .expect(let e) = line.step {
        if case .error = e {
          throw .setup(file: scenario.fileName, line: line.number, message: "expect error must follow the step that is expected to fail")
        }
        try check(e, line, state: current, &run)
        run.report.expectations += 1
        continue
      }
      run.report.steps += 1
      let result: Result<[Change], ActionError>
      switch line.step {
      case .retentionSetup(let change): result = changeRetention(change)
      case .goToCancel(let choice): result = try goToCancel(choice, line, &run)
      default: result = try perform(line, state: current)
      }
      switch result {
      case .success(let changes):
        for c in changes {
          run.state = c.state
          for n in c.notifications {
            run.emitted.append(n)
            run.report.notifications += 1
            onNotification(n)
          }
        }
      case .failure(let error):
        if i < lines.count, case .expect(.error(let fragment)) = lines[i].step {
          let next = lines[i]
          i += 1
          run.report.expectations += 1
          guard error.message.lowercased().contains(fragment.lowercased()) else {
            throw .mismatch(file: scenario.fileName, line: next.number, text: next.text, expected: "an error containing \"\(fragment)\"", actual: "\"\(error.message)\"")
          }
          continue
        }
        throw .refused(file: scenario.fileName, line: line.number, text: line.text, message: error.message)
      }
      if i < lines.count, case .expect(.error) = lines[i].step {
        let next = lines[i]
        throw .mismatch(file: scenario.fileName, line: next.number, text: next.text, expected: "the step before to be refused", actual: "it succeeded")
      }
    }
    return run.report
  }

  /// One step: zero or more saved changes, or the refusal.
  func perform(_ line: ScenarioLine, state: SubscriptionState) throws(ScenarioFailure) -> Result<[Change], ActionError> {
    func once(_ compute: (SubscriptionState) -> Result<Change, ActionError>) throws(ScenarioFailure) -> Result<[Change], ActionError> {
      do { return try store.update(compute).map { [$0] } } catch { throw .file(error) }
    }
    func clock(_ s: SubscriptionState) -> Result<Instant, ActionError> { Result { () throws(ActionError) in try Simulator.clock(s) } }
    switch line.step {
    case .setup, .expect, .retentionSetup, .goToCancel:  // the last two: run() (ScenarioRetention)
      return .success([])
    case .start(let date):
      return try once { s in
        guard s.subscriber.latestTransaction == nil else {
          return .failure(.other("start must come before the first purchase (the clock never goes back)"))
        }
        return Simulator.configure(s) { $0.now = date }
      }
    case .setting(let change):
      return try once { s in Simulator.configure(s) { Self.apply(change, to: &$0) } }
    case .code(let code, let reference, let limit):
      return try once { s in Self.declare(code: code, offerReference: reference, limit: limit, in: s) }
    case .buy(let request):
      return try once { s in clock(s).flatMap { Simulator.buy(request, state: s, at: $0) } }
    case .plan(let action):
      // The action itself, then a zero-length advance so anything it made due (and win-back
      // eligibility) is brought up to date; two saves, like a key press followed by a tick.
      let first = try once { s in
        Result { () throws(ActionError) in (try Simulator.clock(s), try Simulator.rules(s).rate) }
          .flatMap { now, rate in Actions.apply(action, to: s, at: now, timing: rate) }
      }
      guard case .success(let a) = first else { return first }
      if let extended = a.first, let now = try? Simulator.clock(extended.state) {
        store.followFamily(after: extended, clock: now).forEach(onFamilyMember)
      }
      let second = try once { s in clock(s).flatMap { now in Result { () throws(ActionError) in try Simulator.advance(s, to: now) } } }
      return second.map { a + $0 }
    case .command(let cmd):
      return try once { s in clock(s).flatMap { Simulator.apply(cmd, to: s, at: $0) } }
    case .refund(let reason):
      return try once { s in clock(s).flatMap { Simulator.refund(s, reason: reason, at: $0) } }
    case .revokeFamilySharing(let reason):
      return try once { s in clock(s).flatMap { Simulator.revokeFamilySharing(s, purchaserRefund: reason, at: $0) } }
    case .forceRenewal:
      return try once { s in clock(s).flatMap { Simulator.forceRenewal(s, at: $0) } }
    case .requestPriceIncrease(let price, let consent):
      return try once { s in clock(s).flatMap { Simulator.requestPriceIncrease(s, newPrice: price, consentRequired: consent, at: $0) } }
    case .advance(let amount):
      return try once { s in
        clock(s).flatMap { now in
          let target: Instant
          switch amount {
          case .period(let p): target = p.adding(to: now)
          case .span(let span): target = now + span
          }
          return Result { () throws(ActionError) in try Simulator.advance(s, to: target) }
        }
      }
    case .advanceTo(let date):
      return try once { s in
        clock(s).flatMap { now in
          guard date >= now else { return .failure(.other("\(Format.date(date)) is before the clock (\(Format.date(now))); time never goes back")) }
          return Result { () throws(ActionError) in try Simulator.advance(s, to: date) }
        }
      }
    case .advanceEvents(let n):
      var all: [Change] = []
      for _ in 0..<n {
        switch try once({ s in Result { () throws(ActionError) in try Simulator.advanceToNextEvent(s) } }) {
        case .success(let c): all += c
        case .failure(let e): return .failure(e)
        }
      }
      return .success(all)
    }
  }

  static func apply(_ change: SettingChange, to s: inout SimulationSettings) {
    switch change {
    case .rate(let r): s.timeRate = r
    case .grace(let g): s.gracePeriod = g
    case .graceRenewalType(let t): s.graceRenewalType = t
    case .seed(let n): s.seed = n
    case .outcomes(let o): s.renewalOutcomes = o
    case .failRenewals(let b): s.failRenewals = b
    case .failureRate(let f): s.failureRate = f
    case .askToBuy(let b): s.askToBuy = b
    case .renewalCap(let c): s.sandboxRenewalCap = c
    case .environment(let e): s.environment = e
    }
  }

  /// Adds a custom offer code (`offerCodes` in the state file) for a catalog code offer.
  static func declare(code: String, offerReference: String, limit: Int?, in s: SubscriptionState) -> Result<Change, ActionError> {
    guard let product = s.catalog.allSubscriptions.first(where: { $0.codeOffers.contains { $0.referenceName == offerReference } }) else {
      return .failure(.other("No code offer named \"\(offerReference)\" in the catalog."))
    }
    var fields: [(String, JSON)] = [
      ("type", .string("custom")), ("code", .string(code)), ("productId", .string(product.productID)),
      ("offerReference", .string(offerReference)),
    ]
    if let limit { fields.append(("redemptionLimit", .int(limit))) }
    let batch: OfferCodeBatch
    do {
      batch = try OfferCodeBatch(ObjectReader(JSONObject(fields), at: JSONPath.root.appending("offerCodes")))
    } catch {
      return .failure(.other(error.message))
    }
    var state = s
    state.document.offerCodes.append(batch)
    return .success(Change(state: state, message: "Offer code \(code) gives \(offerReference) on \(product.productID)"))
  }
}
