import DashRuntime
import Foundation
import Testing

/// `subdash` finds its helper executables beside its own resolved file or in
/// `../libexec/subdash/` (scripts/install.sh's layout), never on PATH or in the working directory,
/// and a missing one is one line naming the files looked for and the install command.
@Suite struct InstallLayoutTests {
  static let helpers = ["subdash-list", "subdash-fetch", "subdash-db", "subdash-listen", "subdash-deliver"]

  @Test func helpersAreLookedForBesideTheExecutableThenInLibexec() {
    #expect(ExecutablePath.candidates(for: "subdash-fetch", executable: "/opt/sd/bin/subdash")
      == ["/opt/sd/bin/subdash-fetch", "/opt/sd/libexec/subdash/subdash-fetch"])
    #expect(ExecutablePath.candidates(for: "subdash-db", executable: "/usr/bin/subdash")
      == ["/usr/bin/subdash-db", "/usr/libexec/subdash/subdash-db"])
    #expect(ExecutablePath.candidates(for: "subdash-db", executable: "/bin/subdash")
      == ["/bin/subdash-db", "/libexec/subdash/subdash-db"])
    #expect(ExecutablePath.candidates(for: "subdash-db", executable: "/subdash")
      == ["/subdash-db", "/libexec/subdash/subdash-db"])
  }

  /// scripts/install.sh installs every executable target named subdash-* in Package.swift; the
  /// list `subdash` looks for (and `--version` shows) must be the same.
  @Test func theListOfHelpersIsEveryHelperTheInstallShips() throws {
    let manifest = try String(contentsOf: DemoStateTests.repoRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    let declared = manifest.components(separatedBy: "name: \"subdash-").dropFirst().compactMap { rest in
      rest.split(separator: "\"", maxSplits: 1).first.map { "subdash-" + $0 }
    }
    #expect(Set(ExecutablePath.helpers) == Set(declared), "Package.swift declares \(declared); ExecutablePath.helpers has \(ExecutablePath.helpers)")
    #expect(Set(Self.helpers).isSubset(of: Set(ExecutablePath.helpers)))
  }

  /// A `subdash` copied alone into PREFIX/bin: `fetch` says which files it looked for and how to
  /// install them, exits 2, and never runs a `subdash-fetch` found on PATH or in the working directory.
  @Test func aMissingHelperIsOneLineNamingTheFilesAndTheInstallCommand() throws {
    let prefix = try Self.temporaryPrefix()
    defer { try? FileManager.default.removeItem(at: prefix) }
    let bin = prefix.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try ExecutableFixture.copy(from: CommandLineTests.binary.path, to: bin.appendingPathComponent("subdash").path)
    let decoy = prefix.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(at: decoy, withIntermediateDirectories: true)
    let marker = prefix.appendingPathComponent("decoy-ran")
    for name in ExecutablePath.helpers {
      let script = decoy.appendingPathComponent(name)
      try ExecutableFixture.script("#!/bin/sh\ntouch '\(marker.path)'\n", at: script.path)
    }

    let r = try Self.run(bin.appendingPathComponent("subdash"), ["fetch", "2000000500"], in: decoy, path: decoy.path)
    #expect(r.status == 2)
    #expect(r.stderr == "subdash: fetch: subdash-fetch not found (looked for \(bin.path)/subdash-fetch and \(prefix.path)/libexec/subdash/subdash-fetch); install SubDash with scripts/install.sh PREFIX, which puts it in PREFIX/libexec/subdash\n")
    #expect(r.stdout.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: marker.path), "a subdash-fetch on PATH or in the working directory was run")

    // `serve --help` is answered by subdash itself; serving needs the helper.
    for arguments in [["listen", "--help"], ["serve", decoy.path], ["deliver", "--help"], ["db", "--help"], ["token", "--help"]] {
      let command = arguments[0]
      let other = try Self.run(bin.appendingPathComponent("subdash"), arguments, in: decoy, path: decoy.path)
      #expect(other.status == 2, "\(command)")
      #expect(other.stderr.split(separator: "\n").count == 1 && other.stderr.contains("libexec/subdash/subdash-"), "\(command): \(other.stderr)")
    }
    let version = try Self.run(bin.appendingPathComponent("subdash"), ["--version"], in: decoy, path: decoy.path)
    #expect(version.status == 0)
    let fetchLine = version.stdout.split(separator: "\n").first { $0.hasPrefix("  subdash-fetch ") }
    #expect(fetchLine?.hasSuffix(" missing (looked for \(bin.path)/subdash-fetch and \(prefix.path)/libexec/subdash/subdash-fetch)") == true, "\(version.stdout)")
    #expect(version.stdout.hasSuffix("install them with scripts/install.sh PREFIX\n"))
    #expect(!FileManager.default.fileExists(atPath: marker.path))
  }

  /// scripts/install.sh's layout: PREFIX/bin/subdash and the helpers in PREFIX/libexec/subdash.
  /// `--version` names each helper's file, and `subdash fetch --help` runs the one found there.
  @Test func helpersInLibexecAreFoundAndRun() throws {
    let prefix = try Self.temporaryPrefix()
    defer { try? FileManager.default.removeItem(at: prefix) }
    let bin = prefix.appendingPathComponent("bin"), libexec = prefix.appendingPathComponent("libexec/subdash")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: libexec, withIntermediateDirectories: true)
    try ExecutableFixture.copy(from: CommandLineTests.binary.path, to: bin.appendingPathComponent("subdash").path)
    let built = CommandLineTests.binary.deletingLastPathComponent()
    for name in ExecutablePath.helpers {
      // A link is enough for a helper: it is found by stat, and runs from wherever it lives.
      try FileManager.default.createSymbolicLink(at: libexec.appendingPathComponent(name), withDestinationURL: built.appendingPathComponent(name))
    }
    let version = try Self.run(bin.appendingPathComponent("subdash"), ["--version"], in: prefix, path: "/nonexistent")
    #expect(version.status == 0)
    for name in ExecutablePath.helpers {
      #expect(version.stdout.contains(" \(libexec.path)/\(name)\n"), "\(name) not listed: \(version.stdout)")
    }
    #expect(!version.stdout.contains("missing"))
    let help = try Self.run(bin.appendingPathComponent("subdash"), ["fetch", "--help"], in: prefix, path: "/nonexistent")
    #expect(help.status == 0, "\(help.stderr)")
    #expect(help.stdout.contains("USAGE:"))
  }

  /// A link to `subdash` (PATH/subdash -> PREFIX/bin/subdash) finds the helpers of the file it
  /// points to, not of the link's folder.
  @Test func aLinkToSubdashFindsTheHelpersOfItsTarget() throws {
    let dir = try Self.temporaryPrefix()
    defer { try? FileManager.default.removeItem(at: dir) }
    let link = dir.appendingPathComponent("subdash")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: CommandLineTests.binary)
    let version = try Self.run(link, ["--version"], in: dir, path: "/nonexistent")
    let built = CommandLineTests.binary.deletingLastPathComponent().resolvingSymlinksInPath().path
    #expect(version.stdout.contains(" \(built)/subdash-fetch\n"), "\(version.stdout)")
  }

  static func temporaryPrefix() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-install-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.resolvingSymlinksInPath()
  }

  static func run(_ binary: URL, _ args: [String], in directory: URL, path: String) throws -> CommandLineTests.Run {
    let p = Process()
    p.executableURL = binary
    p.arguments = args
    p.currentDirectoryURL = directory
    p.environment = ["PATH": path, "HOME": directory.path]
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = FileHandle.nullDevice
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return .init(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
  }
}
