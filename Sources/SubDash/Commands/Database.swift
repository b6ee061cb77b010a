import ArgumentParser

/// `subdash db …` runs `subdash-db`, installed beside `subdash`: postgres-nio, SwiftNIO and
/// Foundation stay out of `subdash`'s start-up, as for `fetch`.
struct Database: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "db",
    abstract: "Subscribers in a team's PostgreSQL database: import DIR, export DIR, mirror DIR (runs subdash-db; see `subdash db --help`).")

  @Argument(parsing: .captureForPassthrough, help: "import DIR | export DIR | mirror DIR, with --db postgres://USER@HOST/DATABASE.")
  var arguments: [String] = []

  func run() throws { try Fetch.replaceProcess(with: "subdash-db", arguments, command: "db") }
}
