import ArgumentParser

@main
struct SubDash: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "subdash",
    abstract: "A terminal dashboard and App Store simulator for one subscriber's auto-renewable subscription.",
    // terminal-check is hidden from this list; `subdash terminal-check --help` documents it.
    subcommands: [Open.self, Show.self, List.self, Simulate.self, Import.self, Fetch.self, Verify.self, TerminalCheck.self],
    defaultSubcommand: Open.self)
}
