import ArgumentParser

@main
struct SubDash: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "subdash", abstract: "A terminal dashboard for one App Store subscriber.",
    subcommands: [Simulate.self])
  func run() throws { print("subdash") }
}
