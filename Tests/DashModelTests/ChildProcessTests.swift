#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// The one way SubDash starts and waits for another program: a wait is bounded, and a child that
/// outlives it is killed and reaped, never left running or as a zombie.
@Suite struct ChildProcessTests {
  @Test func aChildThatOutlivesTheBoundIsKilledAndReaped() throws {
    guard case .success(let pid) = ChildProcess.spawn(["/bin/sleep", "30"], redirects: [:]) else {
      Issue.record("cannot start /bin/sleep")
      return
    }
    let started = ContinuousClock.now
    #expect(ChildProcess.wait(pid, upTo: .milliseconds(200)) == nil)
    #expect(ContinuousClock.now - started < .seconds(10))
    #expect(kill(pid, 0) != 0, "the child is gone, reaped")
  }

  @Test func aQuickChildsStatusIsItsExitCode() throws {
    guard case .success(let pid) = ChildProcess.spawn(["/bin/sh", "-c", "exit 7"], redirects: [:]) else {
      Issue.record("cannot start /bin/sh")
      return
    }
    #expect(ChildProcess.wait(pid, upTo: .seconds(30)) == 7)
  }

  @Test func runSaysWhyInOneLineOrNothingWhenAllWentWell() {
    #expect(ChildProcess.run(["/bin/sh", "-c", "echo first >&2; echo second >&2; exit 3"], upTo: .seconds(30)) == "exit status 3: first")
    #expect(ChildProcess.run(["/bin/sh", "-c", "echo quiet; exit 0"], upTo: .seconds(30)) == nil)
    #expect(ChildProcess.run(["/bin/sleep", "30"], upTo: .milliseconds(200))?.hasPrefix("did not finish within") == true)
    #expect(ChildProcess.run(["/nonexistent/program"], upTo: .seconds(5)) == "cannot start /nonexistent/program")
  }
}
