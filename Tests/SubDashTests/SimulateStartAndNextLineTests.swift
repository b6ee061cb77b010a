import DashModel
import Foundation
import Testing

@testable import DashRuntime
@testable import SubDash
import CoreValues
import SubscriberStorage

/// `subdash simulate` says where a file without a simulated clock starts (the same moment the
/// dashboard's `>` and `+` start from) and, at a slow rate, what comes next and when.
@Suite struct SimulateStartAndNextLineTests {
  @Test func aFileWithoutAClockSaysWhereItStartsAndNeverGoesBack() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-start-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let source = DemoStateTests.repoRoot.appendingPathComponent("Examples/grace-period.json")
    var json = try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as! [String: Any]
    json.removeValue(forKey: "simulation")
    let copy = dir.appendingPathComponent("grace-no-clock.json")
    try JSONSerialization.data(withJSONObject: json).write(to: copy)
    let before = Date()
    let r = try CommandLineTests().run(["simulate", "--fast", copy.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("has no simulated clock; it starts at "), "\(r.stderr)")
    let clock = try Simulator.clock(StateFile.load(path: copy.path))
    #expect(clock.ms >= (before.timeIntervalSince1970 * 1000).rounded(.down) - 1_000, "the clock went back to \(Format.date(clock))")
  }

  @Test func nextLineNamesTheEventItsDateToTheSecondAndTheWait() {
    let now = try! Format.parseDate("2026-05-14T15:00:00Z")
    let next = SimEvent(date: now + .days(9) + .hours(3) + .seconds(5), kind: .renewal)
    #expect(SimulateClock.nextLine(next, now: now) == "next: renewal at 2026-05-23 18:00:05 UTC (in 9d 03h)")
    let soon = SimEvent(date: now + .seconds(42), kind: .gracePeriodEnd)
    #expect(SimulateClock.nextLine(soon, now: now) == "next: end of grace period at 2026-05-14 15:00:42 UTC (in 42s)")
    // ±1 ms: a millisecond before a whole second still waits that second.
    let edge = SimEvent(date: now + .seconds(42) + .millisecond, kind: .renewal)
    #expect(SimulateClock.nextLine(edge, now: now).hasSuffix("(in 43s)"))
    #expect(SimulateClock.nextLine(nil, now: now).hasPrefix("next: nothing is scheduled"))
  }
}
