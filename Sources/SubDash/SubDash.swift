import ArgumentParser

@main
struct SubDash: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "subdash",
    abstract: "A terminal dashboard and App Store simulator for one subscriber's auto-renewable subscription.",
    subcommands: [Open.self, Show.self],
    defaultSubcommand: Open.self)
}
