import Foundation
import NIOSSL
import PostgresNIO

/// `postgres://user[:password]@host[:port]/database`: the one way a team's database is named on
/// the command line. TLS is off on loopback only; any other host requires it, because the rows
/// hold every customer's purchases.
public struct DatabaseURL: Sendable, Equatable {
  public var host: String
  public var port: Int
  public var username: String
  public var password: String?
  public var database: String

  public init(_ text: String) throws(DatabaseError) {
    guard let c = URLComponents(string: text), c.scheme == "postgres" || c.scheme == "postgresql" else {
      throw .usage("--db must be postgres://USER@HOST[:PORT]/DATABASE, not \(Self.redacted(text))")
    }
    guard let host = c.host, !host.isEmpty else { throw .usage("--db \(Self.redacted(text)): no host") }
    guard let user = c.user, !user.isEmpty else { throw .usage("--db \(Self.redacted(text)): no user (postgres://USER@HOST/DATABASE)") }
    let database = String(c.path.drop { $0 == "/" })
    guard !database.isEmpty, !database.contains("/") else { throw .usage("--db \(Self.redacted(text)): no database name after the host") }
    self.host = host
    port = c.port ?? 5432
    username = user
    password = c.password
    self.database = database
  }

  public var isLoopback: Bool { host == "127.0.0.1" || host == "::1" || host == "localhost" }

  /// The URL as it may be printed: never the password.
  public var description: String { "postgres://\(username)@\(host):\(port)/\(database)" }

  static func redacted(_ text: String) -> String {
    guard var c = URLComponents(string: text), c.password != nil else { return text }
    c.password = "***"
    return c.string ?? "postgres://…"
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
