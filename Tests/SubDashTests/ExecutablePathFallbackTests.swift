import DashRuntime
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Where /proc/self/exe cannot be read (no /proc mounted, another system), `subdash` finds its own
/// file from argv[0] as the shell did (a path against the working directory, a bare name along
/// PATH), resolved with realpath, and so still finds its helpers beside it or in
/// ../libexec/subdash. Exercised here on Linux by calling the fallback directly, in a layout made
/// for the test: PREFIX/bin/subdash (a link to the real file elsewhere) and the helpers.
@Suite struct ExecutablePathFallbackTests {
  /// PREFIX/opt/subdash-1.0/bin/subdash and PREFIX/opt/subdash-1.0/libexec/subdash/subdash-fetch,
  /// reached through the link PREFIX/bin/subdash; a file on PATH that is not executable.
  struct Layout {
    let root: String
    var real: String { root + "/opt/subdash-1.0/bin/subdash" }
    var link: String { root + "/bin/subdash" }
    var helper: String { root + "/opt/subdash-1.0/libexec/subdash/subdash-fetch" }

    init() throws {
      let made = try #require(mkdtemp(strdup(NSTemporaryDirectory() + "/subdash-exepath-XXXXXX")).map { String(cString: $0) })
      root = try #require(realpath(made, nil).map { p in defer { free(p) }; return String(cString: p) })
      for dir in ["/opt/subdash-1.0/bin", "/opt/subdash-1.0/libexec/subdash", "/bin", "/decoy"] {
        try FileManager.default.createDirectory(atPath: root + dir, withIntermediateDirectories: true)
      }
      for file in [real, helper] {
        #expect(FileManager.default.createFile(atPath: file, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755]))
      }
      // An earlier PATH entry holds a `subdash` that is not executable: the shell skips it, so do we.
      #expect(FileManager.default.createFile(atPath: root + "/decoy/subdash", contents: Data(), attributes: [.posixPermissions: 0o644]))
      #expect(symlink("../opt/subdash-1.0/bin/subdash", link) == 0)
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
  }

  @Test func aBareNameIsFoundAlongPathAndResolvedThroughItsLink() throws {
    let layout = try Layout()
    defer { layout.remove() }
    let found = ExecutablePath.fromArgument("subdash", searchPath: "/nonexistent:\(layout.root)/decoy:\(layout.root)/bin", workingDirectory: "/")
    #expect(found == layout.real)
    #expect(try ExecutablePath.locate("subdash-fetch", executable: found).get() == layout.helper)
  }

  @Test func aRelativePathIsTakenFromTheWorkingDirectoryAndAnEmptyPathEntryIsTheWorkingDirectory() throws {
    let layout = try Layout()
    defer { layout.remove() }
    #expect(ExecutablePath.fromArgument("./bin/../bin/subdash", searchPath: nil, workingDirectory: layout.root) == layout.real)
    #expect(ExecutablePath.fromArgument("subdash", searchPath: "/nonexistent::", workingDirectory: layout.root + "/bin") == layout.real)
    #expect(ExecutablePath.fromArgument("subdash", searchPath: "bin", workingDirectory: layout.root) == layout.real)
    #expect(ExecutablePath.fromArgument(layout.link, searchPath: nil, workingDirectory: nil) == layout.real)
  }

  @Test func argumentsThatNameNoExecutableFileGiveNothing() throws {
    let layout = try Layout()
    defer { layout.remove() }
    #expect(ExecutablePath.fromArgument(nil, searchPath: "/bin", workingDirectory: "/") == nil)
    #expect(ExecutablePath.fromArgument("", searchPath: "/bin", workingDirectory: "/") == nil)
    #expect(ExecutablePath.fromArgument("subdash", searchPath: "\(layout.root)/decoy", workingDirectory: "/") == nil, "not executable")
    #expect(ExecutablePath.fromArgument("subdash", searchPath: nil, workingDirectory: layout.root + "/bin") == nil, "no PATH: /bin:/usr/bin as execvp, not the working directory")
    #expect(ExecutablePath.fromArgument("bin/subdash", searchPath: nil, workingDirectory: nil) == nil, "relative, with no working directory")
    #expect(ExecutablePath.fromArgument(layout.root + "/opt", searchPath: nil, workingDirectory: nil) == nil, "a directory")
  }

  /// With /proc/self/exe unreadable, `current` takes the fallback: this test process's own
  /// argv[0], resolved, is the same file /proc/self/exe names.
  @Test func withoutProcSelfExeTheRunningExecutableIsFoundFromArgv0() throws {
    let viaProc = try #require(ExecutablePath.current())
    let viaArgv0 = ExecutablePath.current(selfLink: "/nonexistent/proc/self/exe")
    #expect(viaArgv0 == viaProc, "argv[0] \(CommandLine.arguments.first ?? "none")")
  }
}
