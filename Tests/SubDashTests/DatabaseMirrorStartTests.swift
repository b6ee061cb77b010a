import DashModel
import CoreValues
import Foundation
import Glibc
import Testing

@testable import DashRuntime

/// `subdash --db` waits for its mirror child's first line within a bound of its own: a child that
/// never answers (a server that accepts and says nothing, a stopped process) is one line naming
/// it, the child is stopped, and nothing is left waiting.
@Suite struct DatabaseMirrorStartTests {
  /// A stand-in `subdash-db` that writes its pid, prints `firstLines`, then sleeps far past any
  /// bound (`exec` keeps its pid).
  func fakeMirror(printing firstLines: String = "", in dir: TempDir) throws -> (binary: String, pidFile: String) {
    let pidFile = dir.file("child.pid")
    let fake = dir.file("subdash-db")
    try ExecutableFixture.script("#!/bin/sh\necho $$ > '\(pidFile)'\n\(firstLines)exec sleep 60\n", at: fake)
    return (fake, pidFile)
  }

  /// The child was stopped and reaped, not left sleeping (or a zombie).
  func expectStopped(_ pidFile: String) throws {
    let pid = try #require(pid_t((try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(kill(pid, 0) == -1 && errno == ESRCH)
  }

  @Test func aMirrorChildThatNeverSaysReadyIsStoppedWithOneLine() throws {
    let dir = TempDir()
    // Says nothing on stdout.
    let (fake, pidFile) = try fakeMirror(in: dir)

    let started = ContinuousClock.now
    do {
      let mirror = try DatabaseMirror.start(url: "postgres://team@127.0.0.1:1/none", follow: true, binary: fake, readyTimeoutMs: 500)
      mirror.stop()
      Issue.record("a child that never said ready was taken as ready")
    } catch let error as StateFileError {
      #expect(error.description == "--db: subdash-db mirror (\(fake)) did not say it had read the database within 0.5 s; stopped it")
      #expect(!error.description.contains("\n"))
    }
    #expect(ContinuousClock.now - started < .seconds(10))
    try expectStopped(pidFile)
  }

  /// A first line that is not `ready` (the child's own error) is the end of the mirror, and the
  /// child is not waited on for ever if it then hangs instead of exiting.
  @Test func aChildThatAnswersWithAnErrorAndHangsIsStopped() throws {
    let dir = TempDir()
    let (fake, pidFile) = try fakeMirror(printing: "echo 'error: the database refused the connection'\n", in: dir)
    let started = ContinuousClock.now
    do {
      let mirror = try DatabaseMirror.start(url: "postgres://team@127.0.0.1:1/none", follow: true, binary: fake, readyTimeoutMs: 5_000)
      mirror.stop()
      Issue.record("a child whose first line was an error was taken as ready")
    } catch let failed as DatabaseMirror.Failed {
      #expect(failed.status == 1)
    }
    #expect(ContinuousClock.now - started < .seconds(30))
    try expectStopped(pidFile)
  }
}
