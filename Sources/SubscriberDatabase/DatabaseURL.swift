import DashModel
import Foundation
import NIOSSL
import PostgresNIO
import SubscriberStorage

/// `postgres://user[:password]@host[:port]/database`: the one way a team's database is named
/// (`--db`, `--db-file` or `SUBDASH_DB`, DatabaseURLSource). TLS is off on loopback only; any
/// other host requires it, because the rows hold every customer's purchases. A URL without a
/// password takes libpq's: `PGPASSWORD`, then the password file (`withLibpqPassword`).
public struct DatabaseURL: Sendable, Equatable {
  public var host: String
  public var port: Int
  public var username: String
  public var password: String?
  public var database: String

  public init(_ text: String) throws(DatabaseError) {
    let shown = DatabaseURLSource.redacted(text)
    guard let c = URLComponents(string: text), c.scheme == "postgres" || c.scheme == "postgresql" else {
      throw .usage("--db must be postgres://USER@HOST[:PORT]/DATABASE, not \(shown)")
    }
    guard let host = c.host, !host.isEmpty else { throw .usage("--db \(shown): no host") }
    guard let user = c.user, !user.isEmpty else { throw .usage("--db \(shown): no user (postgres://USER@HOST/DATABASE)") }
    let database = String(c.path.drop { $0 == "/" })
    guard !database.isEmpty, !database.contains("/") else { throw .usage("--db \(shown): no database name after the host") }
    // libpq's `?sslmode=…` and friends are not read here: refused rather than silently ignored.
    guard c.query == nil, c.fragment == nil else { throw .usage("--db \(shown): options after ? are not supported (TLS is required off loopback)") }
    self.host = host
    // Read from the text itself: a port parsed into a 16-bit field wraps (99999 became 34463).
    guard let port = Self.port(in: text) else { throw .usage("--db \(shown): the port must be a number from 1 to 65535") }
    self.port = port
    username = user
    password = c.password
    self.database = database
  }

  /// The port after the host (5432 when none is written); nil when it is not 1…65535.
  static func port(in text: String) -> Int? {
    guard let schemeEnd = text.range(of: "://") else { return nil }
    let rest = text[schemeEnd.upperBound...]
    let authority = rest[..<(rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex)]
    var hostPort = authority[(authority.lastIndex(of: "@").map { authority.index(after: $0) } ?? authority.startIndex)...]
    if hostPort.hasPrefix("["), let close = hostPort.firstIndex(of: "]") { hostPort = hostPort[hostPort.index(after: close)...] }
    guard let colon = hostPort.lastIndex(of: ":") else { return 5432 }
    let digits = hostPort[hostPort.index(after: colon)...]
    guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(digits), (1...65535).contains(port) else { return nil }
    return port
  }

  public var isLoopback: Bool { host == "127.0.0.1" || host == "::1" || host == "localhost" }

  /// The URL as it may be printed: never the password.
  public var description: String { "postgres://\(username)@\(host):\(port)/\(database)" }

  static func redacted(_ text: String) -> String { DatabaseURLSource.redacted(text) }

  /// This URL with libpq's password when it has none: `PGPASSWORD`, else the first matching
  /// line of the password file (`PGPASSFILE`, default `~/.pgpass`). A password file that group or
  /// others may read is ignored with a warning, as libpq does.
  public func withLibpqPassword(environment: [String: String], warn: (String) -> Void) -> DatabaseURL {
    guard password == nil else { return self }
    var url = self
    if let pw = environment["PGPASSWORD"], !pw.isEmpty {
      url.password = pw
      return url
    }
    guard let path = environment["PGPASSFILE"] ?? environment["HOME"].map({ $0 + "/.pgpass" }) else { return self }
    let bytes: [UInt8]?
    do { bytes = try PrivateFile.readIfPresent(path, what: "password file", followingLinks: true) } catch {
      warn("WARNING: \(error.description); it is ignored")
      return self
    }
    guard let bytes else { return self }
    url.password = PasswordFile.password(in: String(decoding: bytes, as: UTF8.self), host: host, port: port, database: database, username: username)
    return url
  }

  func clientConfiguration() -> PostgresClient.Configuration {
    let tls: PostgresClient.Configuration.TLS = isLoopback ? .disable : .require(.makeClientConfiguration())
    return .init(host: host, port: port, username: username, password: password, database: database, tls: tls)
  }

  func connectionConfiguration() throws -> PostgresConnection.Configuration {
    let tls: PostgresConnection.Configuration.TLS = isLoopback ? .disable : .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
    return .init(host: host, port: port, username: username, password: password, database: database, tls: tls)
  }
}
