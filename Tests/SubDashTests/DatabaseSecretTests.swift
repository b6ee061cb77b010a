import Foundation
import Glibc
import Testing

/// A database password must never be in a process's arguments, which every local user reads in
/// `ps`: `subdash list --db` starts `subdash-db` with the URL in its environment, and
/// `subdash listen --db` becomes `subdash-listen` without it in its arguments. The server here
/// is a loopback port that accepts and never answers, so each process stays up long enough to
/// be looked at.
@Suite(.serialized) struct DatabaseSecretTests {
  static let password = "s3cret-\(UInt32.random(in: 1000...9999))"

  /// A loopback listener that never accepts: connections complete in the kernel's backlog and
  /// then hear nothing. Its port.
  final class SilentServer {
    let fd: Int32
    let port: Int
    init() throws {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      self.fd = fd
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      address.sin_port = 0
      var size = socklen_t(MemoryLayout<sockaddr_in>.size)
      let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
      guard bound == 0, listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
      _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &size) } }
      port = Int(UInt16(bigEndian: address.sin_port))
    }
    deinit { close(fd) }
  }

  static func cmdline(_ pid: Int32) -> [String]? {
    guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
    return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
  }

  static func children(_ pid: Int32) -> [Int32] {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8) else { return [] }
    return text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
  }

  /// Polls `probe` every 20 ms for up to 10 s.
  static func waitFor<T>(_ probe: () -> T?) -> T? {
    var value: T?
    _ = eventually(within: .seconds(10), every: .milliseconds(20)) { value = probe(); return value != nil }
    return value
  }

  func start(_ args: [String], environment: [String: String] = [:]) throws -> Process {
    let p = Process()
    p.executableURL = CommandLineTests.binary
    p.arguments = args
    p.environment = ProcessInfo.processInfo.environment.filter { $0.key != "SUBDASH_DB" }.merging(environment) { $1 }
    p.standardInput = FileHandle.nullDevice
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    return p
  }

  func stop(_ p: Process) {
    for child in Self.children(p.processIdentifier) { kill(child, SIGKILL) }
    if p.isRunning { kill(p.processIdentifier, SIGKILL) }
    p.waitUntilExit()
  }

  @Test(arguments: [false, true]) func listStartsSubdashDBWithoutThePasswordInItsArguments(viaEnvironment: Bool) throws {
    let server = try SilentServer()
    let url = "postgres://team:\(Self.password)@127.0.0.1:\(server.port)/subscribers"
    let p = try viaEnvironment ? start(["list"], environment: ["SUBDASH_DB": url]) : start(["list", "--db", url])
    defer { stop(p) }
    let child = try #require(Self.waitFor { () -> [String]? in
      guard let pid = Self.children(p.processIdentifier).first, let args = Self.cmdline(pid), args.first?.hasSuffix("subdash-db") == true else { return nil }
      return args
    }, "subdash list never started subdash-db")
    #expect(child.contains("export"))
    #expect(!child.joined(separator: " ").contains(Self.password))
    #expect(!child.joined(separator: " ").contains("postgres://"))
  }

  @Test func listenHandsTheURLToSubdashListenOutsideItsArguments() throws {
    let server = try SilentServer()
    let url = "postgres://team:\(Self.password)@127.0.0.1:\(server.port)/subscribers"
    let p = try start(["listen", "--port", "0", "--db", url])
    defer { stop(p) }
    // The same process, once `subdash` has become `subdash-listen` (execve).
    let args = try #require(Self.waitFor { () -> [String]? in
      guard let args = Self.cmdline(p.processIdentifier), args.first?.hasSuffix("subdash-listen") == true else { return nil }
      return args
    }, "subdash listen never became subdash-listen")
    #expect(args.contains("--port"))
    #expect(!args.joined(separator: " ").contains(Self.password))
  }

  /// A URL typed with its password straight to `subdash-db` (or `subdash-listen`): the process
  /// overwrites the password in its own arguments once it has read them, so `ps` shows `*`.
  @Test func aPasswordTypedOnTheCommandLineIsHiddenFromPs() throws {
    let server = try SilentServer()
    let url = "postgres://team:\(Self.password)@127.0.0.1:\(server.port)/subscribers"
    let p = Process()
    p.executableURL = CommandLineTests.binary.deletingLastPathComponent().appendingPathComponent("subdash-db")
    p.arguments = ["export", NSTemporaryDirectory() + "subdash-hidden-\(UUID().uuidString)", "--db", url]
    p.standardInput = FileHandle.nullDevice
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    defer { stop(p) }
    let args = try #require(Self.waitFor { () -> [String]? in
      guard let args = Self.cmdline(p.processIdentifier), args.contains(where: { $0.hasPrefix("postgres://team:*") }) else { return nil }
      return args
    }, "the password was still in subdash-db's arguments after 10 s: \(Self.cmdline(p.processIdentifier) ?? [])")
    #expect(!args.joined(separator: " ").contains(Self.password))
    #expect(args.last?.hasSuffix("@127.0.0.1:\(server.port)/subscribers") == true)
  }

  @Test func aDatabaseFileOthersCanReadIsRefused() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-dbfile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("db.url")
    try Data("postgres://team:\(Self.password)@127.0.0.1:1/subscribers\n".utf8).write(to: file)
    chmod(file.path, 0o644)
    let loose = try CommandLineTests().run(["list", "--db-file", file.path])
    #expect(loose.status == 2)
    #expect(loose.stderr.contains("readable by group or others"))
    #expect(!loose.stderr.contains(Self.password))
    let link = dir.appendingPathComponent("link.url")
    chmod(file.path, 0o600)
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
    let linked = try CommandLineTests().run(["list", "--db-file", link.path])
    #expect(linked.status == 2)
    #expect(linked.stderr.contains("symbolic link"))
  }

  /// A URL that does not parse is still printed without its password.
  @Test(arguments: ["postgres://team:PW@host:abc/db", "postgres:/team:PW@host/db", "postgres://team:PW@[::1/db", "postgres://team:PW@127.0.0.1:99999/db"])
  func aBadURLIsPrintedWithoutItsPassword(_ template: String) throws {
    let url = template.replacingOccurrences(of: "PW", with: Self.password)
    let r = try CommandLineTests().run(["db", "export", "/nonexistent-subdash-dir", "--db", url])
    #expect(r.status == 64)
    #expect(r.stderr.hasPrefix("subdash: "))
    #expect(!r.stderr.contains(Self.password))
    #expect(r.stderr.contains("team:***@"))
  }
}
