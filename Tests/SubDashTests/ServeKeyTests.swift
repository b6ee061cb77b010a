import Foundation
import Glibc
import Testing

/// `subdash serve --key` holds the private key that signs bearer tokens: like `fetch`'s key, it
/// is refused when group or others may read it or when it is reached through a symbolic link,
/// before any port is opened. A public key (no secret) may be any mode.
@Suite struct ServeKeyTests {
  /// A throwaway P-256 key made for this test only.
  static let privateKey = """
    -----BEGIN PRIVATE KEY-----
    MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgurOXsyqGff7jU2I0
    h18qrtqcRzKxYz0UkDU+QBysT0KhRANCAASURp2SRn0rmkxj7WOZCURIZE9hkyc+
    uLLisnecnCBnw33cK5m9QY6XBF0NfIoPspEk/xwfWmeyzQtjpQA32lFv
    -----END PRIVATE KEY-----

    """

  /// Runs `subdash serve` on a free loopback port with `key`; its exit status and stderr, or nil
  /// when it was still serving after 3 s (then it is stopped).
  func serve(key: String, in dir: URL) throws -> (status: Int32, stderr: String)? {
    let p = Process()
    p.executableURL = CommandLineTests.binary
    p.arguments = ["serve", "--port", "0", "--key-id", "KEY1", "--issuer-id", "issuer", "--key", key, "--bundle-id", "com.example.app",
                   "--ca", dir.appendingPathComponent("ca").path, dir.appendingPathComponent("state").path]
    let err = Pipe()
    p.standardError = err
    p.standardOutput = FileHandle.nullDevice
    p.standardInput = FileHandle.nullDevice
    try p.run()
    // A refused key ends serve at once; one still running after 3 s was accepted.
    _ = eventually(within: .seconds(3), every: .milliseconds(20)) { !p.isRunning }
    if p.isRunning {
      kill(p.processIdentifier, SIGTERM)
      p.waitUntilExit()
      return nil
    }
    let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return (p.terminationStatus, text)
  }

  func directory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-serve-key-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  @Test func aPrivateKeyOthersCanReadIsRefused() throws {
    let dir = try directory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let key = dir.appendingPathComponent("key.p8")
    try Data(Self.privateKey.utf8).write(to: key)
    chmod(key.path, 0o644)
    let r = try #require(try serve(key: key.path, in: dir), "serve started with a private key every user can read")
    #expect(r.status == 2)
    #expect(r.stderr.contains("readable by group or others"))
    #expect(!r.stderr.contains("MIGHAgEA"))
  }

  @Test func aPrivateKeyReachedThroughASymbolicLinkIsRefused() throws {
    let dir = try directory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let key = dir.appendingPathComponent("key.p8")
    try Data(Self.privateKey.utf8).write(to: key)
    chmod(key.path, 0o600)
    let link = dir.appendingPathComponent("link.p8")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: key)
    let r = try #require(try serve(key: link.path, in: dir), "serve started with a key reached through a symbolic link")
    #expect(r.status == 2)
    #expect(r.stderr.contains("symbolic link"))
  }

  /// The control: the same key, private and given directly, serves (and is stopped).
  @Test func aPrivateKeyOnlyItsOwnerCanReadServes() throws {
    let dir = try directory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let key = dir.appendingPathComponent("key.p8")
    try Data(Self.privateKey.utf8).write(to: key)
    chmod(key.path, 0o600)
    let r = try serve(key: key.path, in: dir)
    #expect(r == nil, "serve exited: \(r?.stderr ?? "")")
  }
}
