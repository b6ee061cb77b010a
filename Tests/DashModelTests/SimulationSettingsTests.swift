import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// The document's `simulation` object: reading, defaults from the .storekit settings, errors that
/// name their path, and writing back without losing or respelling anything.
@Suite struct SimulationSettingsTests {
  func settings(_ json: String) throws -> SimulationSettings {
    try SimulationSettings(ObjectReader(JSONParser.parse(Array(json.utf8)), at: JSONPath.root.appending("simulation")))
  }

  func text(_ s: SimulationSettings) -> String { String(decoding: JSONWriter.write(s.json, pretty: false), as: UTF8.self) }

  @Test func readsEveryField() throws {
    let s = try settings("""
      {"now": 1767225600000, "timeRate": "monthlyRenewalEveryFiveMinutes", "gracePeriod": "28d",
       "graceRenewalType": "PAID_TO_PAID_ONLY", "failRenewals": true, "renewalOutcomes": ["ok", "fail", "recover-after 3d"],
       "failureRate": 0.25, "seed": 42, "renewalCount": 3, "sandboxRenewalCap": 12, "askToBuy": false,
       "billingIssue": {"since": 1767225600000, "gracePeriodExpiresDate": 1767830400000, "retryExpiresDate": 1772409600000, "graceExpired": false},
       "pendingPriceIncrease": {"productId": "p", "newPrice": 12990, "requestedDate": 1767225600000, "response": "accepted"},
       "priceOverrides": {"p": 10990}, "periodAnchor": {"date": 1767225600000, "period": "P1M", "count": 2},
       "environment": "Sandbox", "bundleId": "com.example.birds", "currency": "EUR", "storefront": "FRA"}
      """)
    #expect(s.now == Sim.at("2026-01-01T00:00:00Z"))
    #expect(s.timeRate == "monthlyRenewalEveryFiveMinutes")
    #expect(s.gracePeriod == .length(.days(28)))
    #expect(s.graceRenewalType == .paidToPaidOnly)
    #expect(s.failRenewals == true)
    #expect(s.renewalOutcomes == [.ok, .fail, .recoverAfter(.days(3))])
    #expect(s.failureRate == 0.25)
    #expect(s.seed == 42)
    #expect(s.renewalCount == 3)
    #expect(s.sandboxRenewalCap == .count(12))
    #expect(s.askToBuy == false)
    #expect(s.billingIssue?.retryExpiresDate == Sim.at("2026-03-02T00:00:00Z"))
    #expect(s.pendingPriceIncrease?.response == .accepted)
    #expect(s.priceOverride(for: "p") == 10990)
    #expect(s.periodAnchor?.count == 2)
    #expect(s.environment == .sandbox)
    #expect(s.bundleId == "com.example.birds")
    #expect(s.currency == "EUR")
    #expect(s.storefront == "FRA")
  }

  @Test func unknownKeysAndSpellingsSurviveAWrite() throws {
    var s = try settings(#"{"note": "keep me", "gracePeriod": true, "sandboxRenewalCap": true, "timeRate": 13, "now": 1.0e12}"#)
    #expect(s.gracePeriod == .storeKit)
    #expect(s.sandboxRenewalCap == .on)
    s.renewalCount = 2
    #expect(text(s) == #"{"note":"keep me","gracePeriod":true,"sandboxRenewalCap":true,"timeRate":13,"now":1.0e12,"renewalCount":2}"#)
    s.gracePeriod = .length(.days(16))
    s.now = Sim.at("2026-01-01T00:00:00Z")
    #expect(text(s) == #"{"note":"keep me","gracePeriod":16,"sandboxRenewalCap":true,"timeRate":13,"now":1767225600000,"renewalCount":2}"#)
  }

  @Test(arguments: [
    (#"{"gracePeriod": "forever"}"#, "$.simulation.gracePeriod"),
    (#"{"gracePeriod": 90}"#, "$.simulation.gracePeriod"),
    (#"{"renewalOutcomes": ["ok", "maybe"]}"#, "$.simulation.renewalOutcomes[1]"),
    (#"{"failureRate": 2}"#, "$.simulation.failureRate"),
    (#"{"graceRenewalType": "SOMETIMES"}"#, "$.simulation.graceRenewalType"),
    (#"{"billingIssue": {"since": 1767225600000}}"#, "$.simulation.billingIssue.retryExpiresDate"),
    (#"{"pendingPriceIncrease": {"productId": "p", "newPrice": -1, "requestedDate": 1}}"#, "$.simulation.pendingPriceIncrease.newPrice"),
    (#"{"now": "yesterday"}"#, "$.simulation.now"),
  ])
  func badValuesNameTheirPath(json: String, path: String) {
    do {
      _ = try settings(json)
      Issue.record("accepted \(json)")
    } catch let e as DecodeError {
      #expect(e.path.description == path)
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func engineRefusesBadSettingsWithOneLine() {
    let sim = Sim(settings: [("timeRate", .string("warp9"))])
    #expect(throws: ActionError.self) { try Simulator.advance(sim.state, to: sim.now) }
    guard case .failure(let e) = Simulator.apply(.advance(.days(1)), to: sim.state, at: sim.now) else { return }
    #expect(e.message.hasPrefix("$.simulation.timeRate: "))
    #expect(!e.message.contains("\n"))
  }

  @Test func rateComesFromTheCatalogWhenTheFileHasNone() throws {
    let fromCatalog = Sim { $0.settings.timeRate = 13 }
    #expect(try Simulator.rules(fromCatalog.state).rate == .storeKitTest(.monthlyRenewalEveryFiveMinutes))
    let fromFile = Sim(settings: [("timeRate", .int(1001))]) { $0.settings.timeRate = 13 }
    #expect(try Simulator.rules(fromFile.state).rate == .storeKitTest(.oneRenewalEveryFiveMinutes))
    let sandbox = Sim(settings: [("timeRate", .string("sandbox-15m"))])
    #expect(try Simulator.rules(sandbox.state).rate == .sandbox(.everyFifteenMinutes))
    #expect(try Simulator.rules(sandbox.state).renewalCap == 12)
    #expect(try Simulator.rules(Sim().state).rate == .storeKitTest(.realTime))
    #expect(try Simulator.rules(Sim().state).renewalCap == nil)
  }

  @Test func unknownCatalogTimeRateIsAnError() {
    let sim = Sim { $0.settings.timeRate = 7 }
    #expect(throws: ActionError.self) { try Simulator.rules(sim.state) }
  }

  @Test(arguments: [
    ("off", GraceSetting.off), ("storekit", .storeKit), ("3", .length(.days(3))), ("16d", .length(.days(16))),
    ("P28D", .length(.days(28))), ("SIXTEEN_DAYS", .length(.days(16))), ("36h", .length(.hours(36))),
  ])
  func graceSpellings(text: String, expected: GraceSetting) throws {
    #expect(try GraceSetting(parsing: text) == expected)
  }

  @Test(arguments: [
    ("ok", RenewalOutcome.ok), ("FAIL", .fail), ("recover-in-grace", .recoverInGrace),
    ("recover in retry", .recoverInRetry), ("recover-after 12h", .recoverAfter(.hours(12))),
  ])
  func outcomeSpellingsRoundTrip(text: String, expected: RenewalOutcome) throws {
    let o = try RenewalOutcome(parsing: text)
    #expect(o == expected)
    #expect(try RenewalOutcome(parsing: o.text) == o)
  }

  @Test func settingsWrittenByTheEngineReadBack() throws {
    var sim = Sim(settings: [("gracePeriod", .int(16)), ("failRenewals", .bool(true))])
    sim.buy("pass.premium.monthly")
    sim.next()
    let written = try #require(sim.state.document.simulation)
    let again = try SimulationSettings(ObjectReader(written, at: .root))
    #expect(again.billingIssue?.since == Sim.at("2026-02-01T00:00:00Z"))
    #expect(again.billingIssue?.gracePeriodExpiresDate == Sim.at("2026-02-17T00:00:00Z"))
    #expect(again.now == Sim.at("2026-02-01T00:00:00Z"))
    #expect(again.gracePeriod == .length(.days(16)))
  }

  /// `simulate --grace 61d` was refused only after it had been written, and the written value
  /// then blocked every later run: every accepted spelling must respect the 60-day limit, and
  /// whatever is accepted must read back.
  @Test func graceLongerThanBillingRetryIsRefusedInEverySpelling() throws {
    for text in ["61", "61d", "P61D", "60d1ms", "1464h"] {
      #expect(throws: SimTextError.self, "\(text)") { try GraceSetting(parsing: text) }
    }
    for text in ["60", "60d", "16d12h", "3d"] {
      let g = try GraceSetting(parsing: text)
      let stored = ObjectReader(JSONObject([("gracePeriod", g.json)]), at: .root)
      #expect(try GraceSetting.read(stored, "gracePeriod") == g, "\(text)")
    }
  }

  /// A hand-written `"gracePeriod": 61` makes the file refuse every simulator step; the flag that
  /// sets the grace must be able to repair it, and a still-bad value is refused with its path.
  @Test func aSettingThatDoesNotReadCanBeReplacedButNotWrittenBadly() throws {
    var bad = try StateFile.load(path: ExamplesTests.directory.appendingPathComponent("active.json").path)
    var sim = bad.document.simulation ?? JSONObject()
    sim["gracePeriod"] = .int(61)
    bad.document.simulation = sim
    #expect(throws: ActionError.self) { try Simulator.settings(bad) }
    let fixed = try Simulator.setSettings(bad, [("gracePeriod", .int(16))]).get().state
    #expect(try Simulator.settings(fixed).gracePeriod == .length(.days(16)))
    guard case .failure(let e) = Simulator.setSettings(fixed, [("gracePeriod", .int(61))]) else {
      Issue.record("a 61-day grace was written")
      return
    }
    #expect(e.message == "$.simulation.gracePeriod: a grace period of 61 days is longer than billing retry (60 days)")
  }
}
