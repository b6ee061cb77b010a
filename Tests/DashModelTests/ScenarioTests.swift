import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage
@testable import SimulationRuns

/// Scenario scripts: the format, every shipped example, failures that name their line, and
/// byte-identical results for the same script and seed.
@Suite struct ScenarioTests {
  static let examples: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: Sim.scenariosDir)) ?? []
    return names.filter { $0.hasSuffix(".scenario") }.sorted()
  }()

  /// A fresh scratch directory for one run.
  static func scratch() -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-test-\(UUID().uuidString)").path
    try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }

  /// Runs script text (relative paths resolve in Examples/scenarios) in a scratch directory.
  static func run(_ text: String, in dir: String = scratch()) throws -> (ScenarioReport, String) {
    let scenario = try ScenarioParser.parse(text, fileName: "test.scenario")
    let path = dir + "/" + ScenarioWorkspace.stateFileName
    let report = try ScenarioRunner(scenario: scenario, scriptDirectory: Sim.scenariosDir, statePath: path).run()
    return (report, path)
  }

  @Test func theShippedScenariosAreAllThere() {
    let required = [
      "steady-renewals", "grace-recovered", "retry-recovered", "failure-to-expiry", "voluntary-churn-win-back",
      "upgrade-mid-period", "downgrade-at-renewal", "offer-code-new-subscriber", "offer-code-active-subscriber",
      "declined-price-increase", "refund",
      "commitment-full", "commitment-cancel-month-4", "commitment-billing-failure-month-7", "commitment-upgrade-month-2",
      "commitment-price-increase", "commitment-trial-and-offers",
    ]
    for name in required { #expect(Self.examples.contains(name + ".scenario"), "missing \(name).scenario") }
  }

  @Test(arguments: ScenarioTests.examples)
  func shippedScenarioPasses(name: String) throws {
    let text = try String(contentsOfFile: Sim.scenariosDir + "/" + name, encoding: .utf8)
    let (report, _) = try Self.run(text)
    #expect(report.expectations > 0)
  }

  @Test func sameScriptAndSeedGiveByteIdenticalFiles() throws {
    let text = try String(contentsOfFile: Sim.scenariosDir + "/scripted-outcomes.scenario", encoding: .utf8)
      + "\nset seed 99\nset failure rate 0.4\nset outcomes ok\nadvance 1 hour\n"
    let (_, a) = try Self.run(text)
    let (_, b) = try Self.run(text)
    #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))
    // The history, inline and journaled, is part of what must be identical.
    let ja = a.replacingOccurrences(of: ".json", with: ".journal.jsonl")
    let jb = b.replacingOccurrences(of: ".json", with: ".journal.jsonl")
    #expect(FileManager.default.contents(atPath: ja) == FileManager.default.contents(atPath: jb))
    let entries = try StateFile.load(path: a).historySummary
    #expect(entries.transactionCount + entries.notificationCount > 10)
  }

  @Test func aDifferentSeedChangesTheNotificationIds() throws {
    let base = "catalog pass.storekit\nstart 2026-01-01T00:00:00Z\nset seed "
    let (_, a) = try Self.run(base + "1\nbuy pass.premium.monthly\n")
    let (_, b) = try Self.run(base + "2\nbuy pass.premium.monthly\n")
    // The purchase's notification, wherever the history keeps it (inline, for so young a subscriber).
    func uuids(_ path: String) throws -> [String] {
      try StateFile.load(path: path).subscriber.inlineEntriesInOrder().compactMap {
        if case .notification(let n) = $0 { return n.notificationUUID } else { return nil }
      }
    }
    let ua = try uuids(a), ub = try uuids(b)
    #expect(!ua.isEmpty && !ub.isEmpty)
    #expect(ua != ub)
  }

  @Test func aMismatchNamesTheLineAndBothValues() throws {
    let text = """
      catalog pass.storekit
      start 2026-01-01T00:00:00Z
      buy pass.premium.monthly
      # the purchase is SUBSCRIBED, not DID_RENEW
      expect notification DID_RENEW
      """
    #expect {
      _ = try Self.run(text)
    } throws: { error in
      guard let f = error as? ScenarioFailure else { return false }
      return f.description == "test.scenario:5: mismatch in \"expect notification DID_RENEW\": expected DID_RENEW, found SUBSCRIBED / INITIAL_BUY (2026-01-01 00:00 UTC)"
        && f.exitCode == 1
    }
  }

  @Test func aRefusedStepFailsUnlessTheErrorIsExpected() throws {
    let refused = "catalog pass.storekit\nstart 2026-01-01T00:00:00Z\nresolve billing issue\n"
    #expect {
      _ = try Self.run(refused)
    } throws: { error in
      (error as? ScenarioFailure)?.description.hasPrefix("test.scenario:3: \"resolve billing issue\" was refused: ") == true
    }
    let (report, _) = try Self.run(refused + "expect error no billing issue\n")
    #expect(report.expectations == 1)
  }

  @Test func expectErrorAfterASucceedingStepIsAMismatch() {
    #expect(throws: ScenarioFailure.self) {
      _ = try Self.run("catalog pass.storekit\nstart 2026-01-01T00:00:00Z\nbuy pass.premium.monthly\nexpect error anything\n")
    }
  }

  @Test(arguments: [
    ("buy", 1, "expected buy <product id> [monthly] [family] [no intro]"),
    ("catalog pass.storekit\nadvance 3 fortnights", 2, "unknown unit \"fortnights\""),
    ("catalog pass.storekit\n\n# fine\nexpect notification did renew", 4, "expected a notification such as DID_RENEW"),
    ("teleport", 1, "unknown step \"teleport\""),
    ("set grace forever", 1, "\"forever\" is not a grace period"),
    ("set rate warp", 1, "invalid rate \"warp\""),
    ("code SPRING26", 1, "expected code <CODE>"),
    ("buy \"pass", 1, "unterminated \"quote\""),
    ("start tomorrow", 1, "invalid date \"tomorrow\""),
    ("set environment Production", 1, "simulation never writes Production data"),
  ])
  func syntaxErrorsNameTheLine(text: String, line: Int, fragment: String) {
    do {
      _ = try ScenarioParser.parse(text, fileName: "bad.scenario")
      Issue.record("accepted \(text)")
    } catch {
      #expect(error.line == line)
      #expect(error.message.contains(fragment), "\(error.message)")
      #expect(error.description.hasPrefix("bad.scenario:\(line): "))
    }
  }

  @Test func stepsParseToWhatTheyMean() throws {
    let s = try ScenarioParser.parse("""
      BUY pass.premium.monthly family no intro
      advance 2 months
      advance 90m
      advance P1W
      advance to 2026-03-01 12:00
      advance 3 events
      request price increase 12.99 without consent
      refund issue
      set outcomes ok, fail , recover-in-grace
      accept win-back premium.winback.free
      expect notifications DID_RENEW, DID_FAIL_TO_RENEW/GRACE_PERIOD
      expect status grace
      code SPRING26 "Spring 2026" limit 10
      """, fileName: "t")
    #expect(s.lines.map(\.step) == [
      .buy(PurchaseRequest(productId: "pass.premium.monthly", familyShared: true, useIntroductoryOffer: false)),
      .advance(.period(ISOPeriod(months: 2))),
      .advance(.span(.minutes(90))),
      .advance(.period(.oneWeek)),
      .advanceTo(Sim.at("2026-03-01T12:00:00Z")),
      .advanceEvents(3),
      .requestPriceIncrease(newPriceMilli: 12990, consentRequired: false),
      .refund(.issueInApp),
      .setting(.outcomes([.ok, .fail, .recoverInGrace])),
      .plan(.acceptWinBack(offerId: "premium.winback.free")),
      .expect(.notification(NotificationLabel(type: .didRenew, subtype: nil))),
      .expect(.notification(NotificationLabel(type: .didFailToRenew, subtype: .gracePeriod))),
      .expect(.status(.billingGracePeriod)),
      .code(code: "SPRING26", offerReference: "Spring 2026", limit: 10),
    ])
    #expect(s.lines.map(\.number) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11, 12, 13])
  }

  @Test func setupMustComeFirst() {
    #expect {
      _ = try Self.run("catalog pass.storekit\nstart 2026-01-01T00:00:00Z\ncatalog pass.storekit\n")
    } throws: { error in
      (error as? ScenarioFailure)?.exitCode == 2
    }
  }

  @Test func aMissingCatalogIsBadInput() {
    #expect {
      _ = try Self.run("catalog no-such.storekit\n")
    } throws: { error in
      guard let f = error as? ScenarioFailure else { return false }
      return f.exitCode == 2 && f.description.hasPrefix("no-such.storekit: cannot read")
    }
  }

  @Test func aScriptCanStartFromAStateFileCopy() throws {
    // Build a state file with one script, then continue it from a copy with another.
    let (_, first) = try Self.run("catalog pass.storekit\nstart 2026-01-01T00:00:00Z\nbuy pass.premium.monthly\nadvance 2 months\n")
    let before = FileManager.default.contents(atPath: first)
    let dir = Self.scratch()
    let scenario = try ScenarioParser.parse("state \(first)\nexpect clock 2026-03-01T00:00:00Z\nexpect status active\nadvance to next event\nexpect notification DID_RENEW\nexpect expires 2026-04-08T00:00:00Z\n", fileName: "t")
    let report = try ScenarioRunner(scenario: scenario, scriptDirectory: Sim.scenariosDir, statePath: dir + "/copy.json").run()
    #expect(report.expectations == 4)
    #expect(FileManager.default.contents(atPath: first) == before)
    let copy = try StateFile.load(path: dir + "/copy.json")
    #expect(copy.historySummary.transactionCount == 4)
  }

  /// A run writes its catalog beside the new state file, but never over someone's different file
  /// of that name: refused, nothing written; the same bytes already there are fine.
  @Test func aDifferentCatalogBesideTheNewFileIsNeverReplaced() throws {
    let dir = Self.scratch()
    let theirs = Array(#"{"mine": true}"#.utf8)
    FileManager.default.createFile(atPath: dir + "/pass.storekit", contents: Data(theirs))
    #expect(throws: ScenarioFailure.self) { try Self.run("catalog pass.storekit\nstart 2026-03-01T00:00:00Z", in: dir) }
    #expect(FileManager.default.contents(atPath: dir + "/pass.storekit").map(Array.init) == theirs)
    #expect(!FileManager.default.fileExists(atPath: dir + "/" + ScenarioWorkspace.stateFileName))
    let same = Self.scratch()
    try FileManager.default.copyItem(atPath: Sim.scenariosDir + "/pass.storekit", toPath: same + "/pass.storekit")
    _ = try Self.run("catalog pass.storekit\nstart 2026-03-01T00:00:00Z", in: same)
  }
}
