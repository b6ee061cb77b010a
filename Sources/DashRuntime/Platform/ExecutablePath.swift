import DashModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues

/// Where `subdash` finds the helper executables it runs (`subdash-fetch`, `subdash-listen`, …):
/// beside its own file (a build directory, or an install that keeps everything in one folder),
/// then in `../libexec/subdash/` from there, as git keeps its commands (scripts/install.sh puts
/// them there). Only its own resolved path counts: never PATH, never the working directory, so a
/// stray `subdash-fetch` elsewhere is never run in its place.
/// Its own path: Linux's /proc/self/exe (symbolic links already resolved); where that cannot be
/// read (no /proc mounted, another system), argv[0] found as the shell found it (a path with a `/`
/// against the working directory, a bare name along PATH) and resolved with `realpath`. PATH is
/// used only to learn where `subdash` itself is, never to find a helper.
package enum ExecutablePath {
  /// Every helper `subdash` may run, in the order `subdash --version` lists them.
  /// Every executable target named subdash-* in Package.swift (InstallLayoutTests checks).
  package static let helpers = ["subdash-list", "subdash-fetch", "subdash-db", "subdash-listen", "subdash-deliver", "subdash-retention"]

  /// What to run for each command when no helper is found, said in the one-line error.
  package static let installCommand = "scripts/install.sh PREFIX"

  /// The running executable's own resolved path, or nil when neither the system nor argv[0] says.
  /// `selfLink`: the link to read first (a test names one that does not exist to take the fallback).
  package static func current(selfLink: String = "/proc/self/exe") -> String? {
    if let own = readLink(selfLink) { return own }
    return fromArgument(CommandLine.arguments.first, searchPath: getenv("PATH").map { String(cString: $0) }, workingDirectory: workingDirectory())
  }

  /// The portable way: where a shell found `argument0` (argv[0]), resolved (`realpath`: symbolic
  /// links, `.` and `..`). With a `/` it is a path, relative to `workingDirectory` unless absolute;
  /// a bare name is the first executable file of that name along `searchPath` (an empty entry is
  /// the working directory, as POSIX says; none given: /bin:/usr/bin, as execvp). nil when it
  /// names no executable file.
  package static func fromArgument(_ argument0: String?, searchPath: String?, workingDirectory: String?) -> String? {
    guard let argument0, !argument0.isEmpty else { return nil }
    func absolute(_ path: String) -> String? {
      if path.hasPrefix("/") { return path }
      guard let workingDirectory, workingDirectory.hasPrefix("/") else { return nil }
      return workingDirectory + "/" + path
    }
    if argument0.contains("/") {
      guard let path = absolute(argument0), isExecutableFile(path) else { return nil }
      return resolved(path)
    }
    // No PATH at all: the default glibc's execvp searches, which is not the working directory.
    for entry in (searchPath ?? "/bin:/usr/bin").split(separator: ":", omittingEmptySubsequences: false) {
      guard let directory = absolute(entry.isEmpty ? "." : String(entry)) else { continue }
      let path = directory + "/" + argument0
      if isExecutableFile(path) { return resolved(path) }
    }
    return nil
  }

  private static func readLink(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink(path, &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func resolved(_ path: String) -> String? {
    guard let real = realpath(path, nil) else { return nil }
    defer { free(real) }
    return String(cString: real)
  }

  private static func workingDirectory() -> String? {
    guard let cwd = getcwd(nil, 0) else { return nil }
    defer { free(cwd) }
    return String(cString: cwd)
  }

  /// The places `name` is looked for, best first, for an executable at `executable` (a resolved path).
  package static func candidates(for name: String, executable: String) -> [String] {
    let own = PathName.directory(of: executable)
    let prefix = own == "/" ? "/" : PathName.directory(of: own)
    let join = { (directory: String, rest: String) in (directory == "/" ? "" : directory) + "/" + rest }
    return [join(own, name), join(prefix, "libexec/subdash/" + name)]
  }

  /// The first candidate that is an executable file, or the reason none is.
  package static func locate(_ name: String, executable: String? = current()) -> Result<String, MissingHelper> {
    guard let executable else { return .failure(MissingHelper(name: name, lookedAt: [])) }
    let places = candidates(for: name, executable: executable)
    for place in places where isExecutableFile(place) { return .success(place) }
    return .failure(MissingHelper(name: name, lookedAt: places))
  }

  /// The helper's path, or a thrown one-line reason naming the files looked for.
  package static func helper(_ name: String) throws(MissingHelper) -> String { try locate(name).get() }

  /// The helper's path when found; else the first place it was looked for, so a failing spawn
  /// names a real path (callers that can say more use `helper(_:)`).
  package static func sibling(_ name: String) -> String {
    switch locate(name) {
    case .success(let path): return path
    case .failure(let missing): return missing.lookedAt.first ?? name
    }
  }

  /// True when `name` is installed where `subdash` looks (a partial install may lack it).
  package static func hasSibling(_ name: String) -> Bool {
    if case .success = locate(name) { return true }
    return false
  }

  private static func isExecutableFile(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
    return access(path, X_OK) == 0
  }
}

/// A helper executable that is not where `subdash` looks: one line naming every file looked
/// for and how to install it.
package struct MissingHelper: Error, CustomStringConvertible {
  package let name: String
  package let lookedAt: [String]

  /// "looked for A and B", or why nowhere could be looked at.
  package var places: String {
    lookedAt.isEmpty ? "cannot find this executable's own path (/proc/self/exe, argv[0]) to look beside it" : "looked for " + lookedAt.joined(separator: " and ")
  }

  package var description: String {
    guard !lookedAt.isEmpty else {
      return "\(name) not found: cannot find this executable's own path (/proc/self/exe, argv[0] along PATH) to look beside it; install with \(ExecutablePath.installCommand)"
    }
    return "\(name) not found (\(places)); install SubDash with \(ExecutablePath.installCommand), which puts it in PREFIX/libexec/subdash"
  }
}
