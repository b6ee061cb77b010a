import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// A file without a `simulation` key has no simulated clock; the dashboard shows it at the wall
/// clock. Every simulator entry point starts from one stated moment, the later of the file's
/// newest date and the moment it was opened at, and never sets the clock earlier than that
/// (before, `>` on a grace-period copy showing November jumped back to the 26th of May).
@Suite("Simulator: a file without a simulated clock")
struct SimulatorStartingClockTests {
  static func graceWithoutClock() throws -> SubscriptionState {
    var s = try StateFile.load(path: ExamplesTests.directory.appendingPathComponent("grace-period.json").path)
    s.document.simulation = nil
    return s
  }

  /// The newest date the grace-period file holds (its latest transaction and renewal info).
  static func newest(_ s: SubscriptionState) -> Instant {
    let t = s.subscriber.latestTransaction
    return [t?.purchaseDate, t?.signedDate, s.subscriber.renewalInfo?.signedDate].compactMap { $0 }.max()!
  }

  let opened = Sim.at("2026-11-23T10:00:00Z")

  @Test func theNextEventKeyNeverSetsTheClockBeforeTheMomentOnScreen() throws {
    let s = try Self.graceWithoutClock()
    let change = try Simulator.apply(.advanceToNextEvent, to: s, at: opened).get()
    #expect(try Simulator.clock(change.state) >= opened)
    #expect(change.message.hasPrefix("Clock started at \(Format.date(opened)) (the file had none)."), "\(change.message)")
  }

  @Test func plusStartsFromTheSameMoment() throws {
    let s = try Self.graceWithoutClock()
    let change = try Simulator.apply(.advance(.hour), to: s, at: opened).get()
    #expect(try Simulator.clock(change.state) == opened + .hour)
    #expect(change.message.hasPrefix("Clock started at \(Format.date(opened))"), "\(change.message)")
  }

  @Test func otherKeysStartFromTheSameMoment() throws {
    let s = try Self.graceWithoutClock()
    let soon = Self.newest(s) + .hour  // still in grace
    let change = try Simulator.apply(.resolveBillingIssue, to: s, at: soon).get()
    #expect(try Simulator.clock(change.state) == soon)
    #expect(change.message.hasPrefix("Clock started at \(Format.date(soon))"), "\(change.message)")
  }

  @Test func theStartIsTheLaterOfTheNewestDateAndTheOpeningMoment() throws {
    let s = try Self.graceWithoutClock()
    let newest = Self.newest(s)
    #expect(Simulator.startingClock(s, opening: newest - .millisecond) == newest)
    #expect(Simulator.startingClock(s, opening: newest) == newest)
    #expect(Simulator.startingClock(s, opening: newest + .millisecond) == newest + .millisecond)
    #expect(try Simulator.clock(s, opening: newest - .millisecond) == newest)
    #expect(try Simulator.clock(s) == newest)
  }

  @Test func openedBeforeTheFilesDatesTheNextEventStillMovesForward() throws {
    let s = try Self.graceWithoutClock()
    let early = Self.newest(s) - .day
    let change = try Simulator.apply(.advanceToNextEvent, to: s, at: early).get()
    #expect(try Simulator.clock(change.state) >= Self.newest(s))
  }

  @Test func aFileWithAClockKeepsItsOwn() throws {
    let s = try StateFile.load(path: ExamplesTests.directory.appendingPathComponent("grace-period.json").path)
    let own = try #require(try Simulator.settings(s).now)
    #expect(try Simulator.clock(s, opening: opened) == own)
    let change = try Simulator.apply(.advance(.hour), to: s, at: own).get()
    #expect(!change.message.contains("Clock started"))
  }
}

