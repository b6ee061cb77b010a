import ArgumentParser
import DashModel
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberDatabase
import SubscriberStorage
import RetentionMessaging
import CoreValues

/// `subdash db …` (this binary, run by `subdash`): move subscribers between a directory of state
/// files and a team's PostgreSQL database, and keep a directory in step with the database for the
/// list and the dashboard (`subdash --db URL`).
@main
struct DBCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "subdash db",
    abstract: "Subscribers in PostgreSQL: import a directory, export it back, or mirror the database into a directory.",
    discussion: """
      URL: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, from --db, --db-file or SUBDASH_DB; \
      without a password, PGPASSWORD or ~/.pgpass (PGPASSFILE) as for psql. TLS is required for any \
      host but loopback. Exit codes: 0 ok; 1 the server refused or could not be reached; 2 a file \
      could not be stored (named, nothing stored); 64 bad command line; 75 another writer held a \
      subscriber or the configuration too long, or changed one while it was being imported \
      (nothing stored; run again).
      """,
    subcommands: [ImportDirectory.self, ExportDirectory.self, Mirror.self])
}

struct DatabaseOption: ParsableArguments {
  @Option(name: .customLong("db"), help: ArgumentHelp("The database (default: $SUBDASH_DB). A password here is seen by every user in `ps`: prefer SUBDASH_DB, --db-file or ~/.pgpass.", valueName: "URL"))
  var url: String?
  @Option(name: .customLong("db-file"), help: ArgumentHelp("Read the database URL from this private file (mode 600, not a symbolic link).", valueName: "PATH"))
  var file: String?

  func databaseURL() throws -> DatabaseURL {
    DatabaseURLSource.hidePasswordsInArguments()
    let environment = ProcessInfo.processInfo.environment
    let found: String?
    do { found = try DatabaseURLSource.text(option: url, file: file, environment: { environment[$0] }) } catch {
      throw failure(.usage(error.description))
    }
    guard let text = found else {
      throw failure(.usage("give --db postgres://USER@HOST/DATABASE (or set SUBDASH_DB, or --db-file PATH)"))
    }
    let parsed: DatabaseURL
    do { parsed = try DatabaseURL(text) } catch { throw failure(error) }
    return parsed.withLibpqPassword(environment: environment) { FileHandle.standardError.write(Data("subdash: \($0)\n".utf8)) }
  }
}

/// One line on stderr, then the error's exit code.
func failure(_ error: DatabaseError) -> ExitCode {
  FileHandle.standardError.write(Data("subdash: \(error.description)\n".utf8))
  return ExitCode(error.exitCode)
}

/// Every `db` command's start: connect, bring the tables up to date, run `body`; a failure is one
/// line and its exit code.
func withDatabase<T: Sendable>(_ url: DatabaseURL, _ body: @Sendable (SubscriberDatabase) async throws -> T) async throws -> T {
  do {
    return try await SubscriberDatabase.open(url) { database in
      try await database.migrate()
      return try await body(database)
    }
  } catch let e as DatabaseError { throw failure(e) }
}

struct ImportDirectory: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Store every state file in DIR (with its journal and catalog) in the database, replacing rows of the same name; DIR's Retention Messaging configuration too.")

  @Argument(help: "A directory of state files, as `subdash listen` or `subdash import` write them.")
  var directory: String
  @OptionGroup var db: DatabaseOption

  func run() async throws {
    // The directory is checked first (a bad file: exit 2 without connecting), and read again once
    // the rows' versions are known: a row a concurrent writer (`listen --db`) changes after that
    // is not replaced (DatabaseError.changed, exit 75, nothing stored).
    do {
      _ = try DirectoryFiles.read(directory)
      _ = try DirectoryFiles.retentionConfiguration(in: directory)
    } catch { throw failure(error) }
    let url = try db.databaseURL()
    let directory = directory
    let (subscribers, catalogs, configured) = try await withDatabase(url) { database in
      let seen = try await database.versions()
      let name = SubscriberDatabase.retentionConfigurationName
      let seenConfiguration = try await database.configurationVersion(named: name)
      let (subscribers, catalogs) = try DirectoryFiles.read(directory)
      // Serve's configuration moves with its subscribers, but for the keys of the server that
      // answers for the database (RetentionSetup.keepingStoredKeys); a directory without one
      // leaves the database's as it is, as rows of other names are.
      let configurations = try DirectoryFiles.retentionConfiguration(in: directory).map { bytes in
        [ConfigurationDocument(name: name, seen: seenConfiguration) { stored in RetentionSetup.keepingStoredKeys(stored, in: bytes) }]
      } ?? []
      try await database.store(subscribers, catalogs: catalogs, configurations: configurations, unchangedSince: seen)
      return (subscribers.count, catalogs.count, !configurations.isEmpty)
    }
    let also = configured ? ", and the Retention Messaging configuration," : ""
    print("\(url.description): stored \(counted(subscribers, "subscriber")) and \(counted(catalogs, "catalog"))\(also) from \(directory)")
  }
}

struct ExportDirectory: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write every subscriber in the database (with journals and catalogs) and the Retention Messaging configuration into DIR, each file atomically.")

  @Argument(help: "The directory to write (created when missing).")
  var directory: String
  @OptionGroup var db: DatabaseOption

  func run() async throws {
    let url = try db.databaseURL()
    let directory = directory
    let (count, configured) = try await withDatabase(url) { database in
      let subscribers = try await database.subscribers()
      try DirectoryFiles.write(subscribers, catalogs: try await database.catalogs(), to: directory)
      // What `serve --db` configured, where `serve DIR` and the dashboard read it; none stored:
      // a file already there is left as it is.
      let configuration = try await database.retentionConfiguration()
      if let configuration { try DirectoryFiles.writeRetentionConfiguration(configuration, to: directory) }
      return (subscribers.count, configuration != nil)
    }
    let left = directory + "/" + RetentionSetup.fileName
    if !configured, FileManager.default.fileExists(atPath: left) {
      // Not the database's: a later `db import` of DIR would store it as if it were.
      FileHandle.standardError.write(Data("subdash: \(left): left as it was; the database holds no Retention Messaging configuration\n".utf8))
    }
    let also = configured ? " and the Retention Messaging configuration" : ""
    print("\(directory): wrote \(counted(count, "subscriber"))\(also) from \(url.description)")
  }
}

/// Exports, prints `ready`, then rewrites each subscriber a writer commits, until stdin closes or
/// a signal ends it. `subdash --db URL` runs this beside the list, so the list and the dashboard
/// follow the database with the file watching they already do; a dashboard's keys come back on
/// stdin and are applied to the row under its lock (RowWrites).
struct Mirror: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mirror",
    abstract: "Export the database into DIR, then keep DIR in step with it (LISTEN/NOTIFY).")

  @Argument(help: "The directory to keep in step (created when missing).")
  var directory: String
  @OptionGroup var db: DatabaseOption

  func run() async throws {
    let url = try db.databaseURL()
    let directory = directory
    try await withDatabase(url) { database in
      // Listen first, then export (DirectoryMirror): a change committed in between is rewritten,
      // never missed; a row NOTIFY brings is written only when newer than the directory's copy.
      let mirror = DirectoryMirror(directory: directory) { FileHandle.standardError.write(Data("subdash: \($0)\n".utf8)) }
      // The mirror follows through the store; this process writes a key's row through RowWrites
      // and a purchaser's family members through the store (its scratch). Removed however the
      // mirror ends.
      let scratch: String
      do { scratch = try PrivateDirectory.makeTemporary("subdash-mirror") } catch { throw DatabaseError.file("\(error)") }
      defer { DirectoryFiles.remove(scratch) }
      let store = PostgresSubscriberStore(database: database, scratch: scratch)
      // The Retention Messaging configuration too: the dashboard's cancel flow reads it beside
      // the state file, as from a directory `serve` answers for.
      try await mirror.runWithRetentionConfiguration(store) { count in
        // Unbuffered: the parent waits for this line before it opens the list.
        RowWrites.reply(.ready(count: count, directory: directory))
        // Stdin carries the dashboard's writes (RowWrites); the parent closes it when it quits:
        // then stop (every file write is atomic, and a row write not committed is rolled back).
        let lines = LineQueue()
        lines.startReading()
        Task {
          await RowWrites.serve(lines, store: store, mirror: directory)
          DirectoryFiles.remove(scratch)
          Glibc.exit(0)
        }
      }
    }
  }
}
