import ArgumentParser
import DashModel
import DashRuntime
import FoundationEssentials
import Glibc

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
  static func replaceProcess(with name: String, _ arguments: [String], command: String) throws -> Never {
    let binary = siblingBinary(name)
    var cArgs = ([binary] + arguments).map { strdup($0) } + [nil]
    execv(binary, &cArgs)
    let code = errno
    throw badInput("\(command): cannot run \(binary): \(String(cString: strerror(code))) (it is built beside subdash by `swift build`)")
  }

  /// `subdash` and `subdash-fetch` are built and installed side by side (Platform/ExecutablePath).
  static func siblingBinary(_ name: String) -> String { ExecutablePath.sibling(name) }
}
