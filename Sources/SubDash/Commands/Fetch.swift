import ArgumentParser
import DashModel
import DashRuntime
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberStorage

/// `subdash fetch …` runs `subdash-fetch`, installed beside `subdash`. The App Store client needs
/// async-http-client, SwiftNIO and Foundation; linking them here would make every `subdash show`
/// load libFoundation and ICU at startup (docs/fetch.md has the measurement), so they live in
/// their own binary and this command only hands over its arguments.
struct Fetch: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fetch",
    abstract: "Fetch one customer from the App Store Server API into a file (runs subdash-fetch; see `subdash fetch --help`).",
    shouldDisplay: true)

  @Argument(parsing: .captureForPassthrough, help: "TRANSACTION_ID or --order-id ORDERID, -o FILE, credentials, --environment, --base-url, --root.")
  var arguments: [String] = []

  func run() throws { try Self.replaceProcess(with: "subdash-fetch", arguments, command: "fetch") }

  /// Becomes the sibling binary (execv: same pid, same terminal, its exit code is ours); returns
  /// only by throwing when it cannot be run. `fetch`, `listen` and `db` hand over this way.
  /// A `--db URL` is handed over in SUBDASH_DB instead: the sibling's arguments are in `ps` for as
  /// long as it runs (a server, for days), and the URL may hold a password.
  static func replaceProcess(with name: String, _ arguments: [String], command: String) throws -> Never {
    let binary = try helper(name, for: command)
    let (kept, url) = DatabaseChoice.movingURLToEnvironment(arguments)
    var cArgs = ([binary] + kept).map { strdup($0) } + [nil]
    var cEnvironment = ChildEnvironment.entries(overriding: url.map { [DatabaseURLSource.variable: $0] } ?? [:]).map { strdup($0) } + [nil]
    execve(binary, &cArgs, &cEnvironment)
    let code = errno
    throw badInput("\(command): cannot run \(binary): \(String(cString: strerror(code))) (reinstall with \(ExecutablePath.installCommand))")
  }

  /// The helper's path beside `subdash` or in PREFIX/libexec/subdash (Platform/ExecutablePath),
  /// or one line naming the files looked for and how to install them (exit 2).
  static func helper(_ name: String, for command: String) throws -> String {
    do { return try ExecutablePath.helper(name) } catch { throw badInput("\(command): \(error)") }
  }
}
