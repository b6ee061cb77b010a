import ArgumentParser

@main
struct SubDash: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "subdash",
    abstract: "A terminal dashboard for one App Store subscriber.",
    // terminal-check is hidden from this list; `subdash terminal-check --help` documents it.
    subcommands: [TerminalCheck.self]
  )
  func run() throws { print("subdash") }
}
