import DashModel
import Foundation
import Glibc
import Testing

@testable import DashRuntime

/// `subdash --db` waits for its mirror child's first line within a bound of its own: a child that
/// never answers (a server that accepts and says nothing, a stopped process) is one line naming
/// it, the child is stopped, and nothing is left waiting.
@Suite struct DatabaseMirrorStartTests {
  @Test func aMirrorChildThatNeverSaysReadyIsStoppedWithOneLine() throws {
    let dir = TempDir()
    let pidFile = dir.file("child.pid")
    let fake = dir.file("subdash-db")
    // Says nothing on stdout and would sleep far past the bound; `exec` keeps its pid.
    try ExecutableFixture.script("#!/bin/sh\necho $$ > '\(pidFile)'\nexec sleep 60\n", at: fake)

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

    // The child was stopped and reaped, not left sleeping (or a zombie).
    let pid = try #require(pid_t((try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(kill(pid, 0) == -1 && errno == ESRCH)
  }

  /// A first line that is not `ready` (the child's own error) is the end of the mirror, and the
  /// child is not waited on for ever if it then hangs instead of exiting.
  @Test func aChildThatAnswersWithAnErrorAndHangsIsStopped() throws {
    let dir = TempDir()
    let pidFile = dir.file("child.pid")
    let fake = dir.file("subdash-db")
    try ExecutableFixture.script("#!/bin/sh\necho $$ > '\(pidFile)'\necho 'error: the database refused the connection'\nexec sleep 60\n", at: fake)
    let started = ContinuousClock.now
    do {
      let mirror = try DatabaseMirror.start(url: "postgres://team@127.0.0.1:1/none", follow: true, binary: fake, readyTimeoutMs: 5_000)
      mirror.stop()
      Issue.record("a child whose first line was an error was taken as ready")
    } catch let failed as DatabaseMirror.Failed {
      #expect(failed.status == 1)
    }
    #expect(ContinuousClock.now - started < .seconds(30))
    let pid = try #require(pid_t((try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(kill(pid, 0) == -1 && errno == ESRCH)
  }
}
