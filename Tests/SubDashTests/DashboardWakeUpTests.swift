import DashModel
import DashView
import Foundation
import Testing
@testable import DashRuntime
@testable import SubDash
import CoreValues

/// An idle dashboard wakes only when the screen would change by itself: never for a file with a
/// simulated clock or a `--now` moment (nothing moves until the file or a key does), once a
/// minute for a live view, once a second while a live countdown is under an hour.
@Suite struct DashboardWakeUpTests {
  /// latestTransaction.expiresDate of Examples/active.json: the renewal the countdown counts to.
  let renews = Instant(ms: 1_779_561_134_000)

  func session(_ example: String, live: Bool, nowOverride: Instant? = nil) throws -> DashboardSession {
    let path = try DashboardSessionTests().copyOfExample(example) { root in
      if live { root["simulation"] = nil }
    }
    return try DashboardSession(path: path, displayName: "state.json", options: DisplayOptions(), nowOverride: nowOverride, retryAccess: nil)
  }

  func wakeUp(_ session: DashboardSession, wall: Instant) -> Int32? {
    _ = session.model(wall: wall)  // the drawn frame the loop asks about
    return session.msUntilScreenChanges(wall: wall, UIState())
  }

  @Test func aSimulatedClockNeverWakesAnIdleDashboard() throws {
    let s = try session("active", live: false)
    #expect(wakeUp(s, wall: renews - .days(3)) == nil)
    #expect(wakeUp(s, wall: renews - .minutes(30)) == nil)
  }

  @Test func aNowMomentNeverWakesAnIdleDashboard() throws {
    let s = try session("active", live: true, nowOverride: renews - .minutes(30))
    #expect(wakeUp(s, wall: renews - .minutes(30)) == nil)
  }

  @Test func aLiveViewWakesAtTheNextMinuteWhenTheRenewalIsAnHourAway() throws {
    let s = try session("active", live: true)
    let wall = renews - .hours(1)
    let ms = try #require(wakeUp(s, wall: wall))
    #expect(ms > 1_000 && ms <= 60_001)
    #expect((wall.ms + Double(ms)).truncatingRemainder(dividingBy: 60_000) == 1)
  }

  @Test func aLiveViewWakesEverySecondOneMillisecondInsideTheLastHour() throws {
    let s = try session("active", live: true)
    let ms = try #require(wakeUp(s, wall: renews - .hours(1) + .millisecond))
    #expect(ms <= 1_001)
  }

  @Test func aLapsedLiveViewStillWakesEachMinuteForItsClock() throws {
    let s = try session("expired-voluntary", live: true)
    let ms = try #require(wakeUp(s, wall: renews))
    #expect(ms > 1_000 && ms <= 60_001)
  }
}
