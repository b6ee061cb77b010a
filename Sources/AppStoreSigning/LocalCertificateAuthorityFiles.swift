import Crypto
import FoundationEssentials
import X509

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A local CA on disk: certificates in PEM (and the root in DER, to hand to whoever must trust it),
/// private keys in PEM with mode 0600. Loading refuses keys that group or others can read, like ssh does.
extension LocalCertificateAuthority {
  public static let rootCertificateFile = "root.pem"
  public static let rootDERFile = "root.der"
  static let intermediateCertificateFile = "intermediate.pem"
  static let leafCertificateFile = "leaf.pem"
  static let rootKeyFile = "root-key.pem"
  static let intermediateKeyFile = "intermediate-key.pem"
  static let leafKeyFile = "leaf-key.pem"

  /// `$XDG_CONFIG_HOME/subdash/ca`, else `~/.config/subdash/ca`.
  public static func defaultDirectory() -> String {
    if let xdg = getenv("XDG_CONFIG_HOME").map({ String(cString: $0) }), !xdg.isEmpty { return xdg + "/subdash/ca" }
    return (getenv("HOME").map { String(cString: $0) } ?? ".") + "/.config/subdash/ca"
  }

  /// Where the root is and how to trust it, for the developer's terminal.
  public func trustLines(directory dir: String) -> [String] {
    [
      "root certificate: \(dir)/\(Self.rootCertificateFile) (PEM), \(dir)/\(Self.rootDERFile) (DER)",
      "SHA-256 fingerprint: \(rootFingerprintSHA256)",
      "trust it: subdash verify --root \(dir)/root.pem …, subdash listen --root \(dir)/root.pem …,",
      "  Apple's library: SignedDataVerifier(root_certificates=[open('\(dir)/root.der','rb').read()], enable_online_checks=False, …)",
    ]
  }

  /// The CA in `directory` (the default one when nil), created on first use; a new CA is announced
  /// through `say`, with where its root is, since whoever receives what it signs must trust that root.
  public static func loadOrCreate(in directory: String?, trustedBy who: String, say: (String) -> Void) throws -> LocalCertificateAuthority {
    let dir = directory ?? defaultDirectory()
    let (ca, created) = try loadOrCreate(in: dir)
    if created {
      say("created a local App Store test CA in \(dir); \(who) must trust its root:")
      for line in ca.trustLines(directory: dir) { say("  " + line) }
    }
    return ca
  }

  /// The CA in `directory`, created there (parents 0700) when there is none yet; `created` says which.
  public static func loadOrCreate(in directory: String) throws -> (authority: LocalCertificateAuthority, created: Bool) {
    if access(directory + "/" + leafKeyFile, F_OK) == 0 { return (try load(from: directory), false) }
    var parents: [String] = []
    var p = directory
    while let slash = p.lastIndex(of: "/"), slash != p.startIndex {
      p = String(p[..<slash])
      parents.insert(p, at: 0)
    }
    for parent in parents where access(parent, F_OK) != 0 { _ = mkdir(parent, 0o700) }
    let ca = try create()
    try ca.save(to: directory)
    return (ca, true)
  }

  /// Writes the CA into `directory` (created 0700 when missing). Refuses to overwrite an existing CA:
  /// replacing keys would silently invalidate every root a developer already trusts.
  public func save(to directory: String) throws {
    if mkdir(directory, 0o700) != 0 && errno != EEXIST {
      throw SigningError("\(directory): cannot create directory: \(String(cString: strerror(errno)))")
    }
    let files: [(String, [UInt8], mode_t)] = [
      (Self.rootKeyFile, Array(rootKey.pemRepresentation.utf8), 0o600),
      (Self.intermediateKeyFile, Array(intermediateKey.pemRepresentation.utf8), 0o600),
      (Self.leafKeyFile, Array(leafKey.pemRepresentation.utf8), 0o600),
      (Self.rootCertificateFile, Array(try root.serializeAsPEM().pemString.utf8) + [10], 0o644),
      (Self.rootDERFile, try Self.der(root), 0o644),
      (Self.intermediateCertificateFile, Array(try intermediate.serializeAsPEM().pemString.utf8) + [10], 0o644),
      (Self.leafCertificateFile, Array(try leaf.serializeAsPEM().pemString.utf8) + [10], 0o644),
    ]
    for (name, _, _) in files where access(directory + "/" + name, F_OK) == 0 {
      throw SigningError("\(directory)/\(name): a CA already exists here; not overwriting it")
    }
    for (name, bytes, mode) in files {
      try Self.writeNew(directory + "/" + name, bytes, mode: mode)
    }
  }

  /// Reads a CA written by `save(to:)`. Every key file must be readable by its owner only.
  public static func load(from directory: String) throws -> LocalCertificateAuthority {
    func text(_ name: String, secret: Bool) throws -> String {
      let path = directory + "/" + name
      var info = stat()
      guard stat(path, &info) == 0 else {
        throw SigningError("\(path): cannot read: \(String(cString: strerror(errno)))")
      }
      if secret && info.st_mode & 0o077 != 0 {
        throw SigningError("\(path): private key is readable by group or others (mode \(String(info.st_mode & 0o777, radix: 8))); run chmod 600 on it")
      }
      guard let data = FileManager.default.contents(atPath: path), let string = String(data: data, encoding: .utf8) else {
        throw SigningError("\(path): cannot read")
      }
      return string
    }
    func certificate(_ name: String) throws -> Certificate {
      do { return try Certificate(pemEncoded: try text(name, secret: false)) } catch let error as SigningError { throw error } catch {
        throw SigningError("\(directory)/\(name): not a PEM certificate")
      }
    }
    func key<K>(_ name: String, _ make: (String) throws -> K) throws -> K {
      let pem = try text(name, secret: true)
      do { return try make(pem) } catch { throw SigningError("\(directory)/\(name): not a PEM private key of the expected curve") }
    }
    let ca = LocalCertificateAuthority(
      root: try certificate(rootCertificateFile),
      intermediate: try certificate(intermediateCertificateFile),
      leaf: try certificate(leafCertificateFile),
      rootKey: try key(rootKeyFile) { try P384.Signing.PrivateKey(pemRepresentation: $0) },
      intermediateKey: try key(intermediateKeyFile) { try P384.Signing.PrivateKey(pemRepresentation: $0) },
      leafKey: try key(leafKeyFile) { try P256.Signing.PrivateKey(pemRepresentation: $0) })
    guard Certificate.PublicKey(ca.leafKey.publicKey) == ca.leaf.publicKey else {
      throw SigningError("\(directory)/\(leafKeyFile): does not match \(leafCertificateFile)")
    }
    return ca
  }

  /// Creates `path` (never replaces it) with `mode` from the start, so a key is never briefly readable.
  private static func writeNew(_ path: String, _ bytes: [UInt8], mode: mode_t) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard fd >= 0 else { throw SigningError("\(path): cannot create: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      guard written > 0 else { throw SigningError("\(path): cannot write: \(String(cString: strerror(errno)))") }
      offset += written
    }
    guard fsync(fd) == 0 else { throw SigningError("\(path): cannot fsync: \(String(cString: strerror(errno)))") }
  }
}

extension LocalCertificateAuthority {
  /// The root's SHA-256 fingerprint, `AB:CD:…`, as `openssl x509 -fingerprint -sha256` prints it:
  /// what a developer compares before trusting the root in a backend.
  public var rootFingerprintSHA256: String {
    SHA256.hash(data: rootDER).map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined(separator: ":")
  }
}

private extension String {
  func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
