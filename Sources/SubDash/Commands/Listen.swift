import ArgumentParser

/// `subdash listen …` runs `subdash-listen`, installed beside `subdash`: the HTTP server
/// (Hummingbird, SwiftNIO) stays out of the dashboard's start-up, as for `fetch` and `db`.
struct Listen: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "listen",
    abstract: "Receive App Store Server Notifications V2, verify them and apply each to its subscriber (runs subdash-listen; see `subdash listen --help`).")

  @Argument(parsing: .captureForPassthrough, help: "--port PORT [--host H] [--root CERT]… [--bundle-id ID] DIR | --db URL.")
  var arguments: [String] = []

  func run() throws { try Fetch.replaceProcess(with: "subdash-listen", arguments, command: "listen") }
}
