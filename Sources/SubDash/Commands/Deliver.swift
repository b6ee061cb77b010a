import ArgumentParser

/// `subdash deliver …` runs `subdash-deliver`, installed beside `subdash`: AsyncHTTPClient and the
/// signing code stay out of the dashboard's start-up, as for `fetch`, `listen` and `db`.
struct Deliver: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "deliver",
    abstract: "Send a state file's new notifications to your server as App Store Server Notifications V2, signed by the local test CA (runs subdash-deliver; see `subdash deliver --help`).")

  @Argument(parsing: .captureForPassthrough, help: "--to URL [--duplicate-rate P] [--reorder-window S] [--retry-schedule production|sandbox] [--ca DIR] [--drain] FILE.")
  var arguments: [String] = []

  func run() throws { try Fetch.replaceProcess(with: "subdash-deliver", arguments, command: "deliver") }
}
