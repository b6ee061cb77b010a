import ArgumentParser
import DashModel

@main
struct SubDash: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "subdash",
    abstract: "A terminal dashboard and App Store simulator for one subscriber's auto-renewable subscription.",
    // `subdash FILE` runs `open`, whose options ArgumentParser lists only under `open --help`:
    // name them here so the top-level help is enough to start.
    discussion: """
      subdash [FILE] opens the dashboard (the open subcommand). Its options: --read-only (no key \
      changes the file), --no-color, --ascii, --now DATE (view another moment), --retry-access \
      none|limited; see `subdash open --help`. Without a terminal, use `subdash show FILE`.
      Exit codes: 0 ok, 1 refused or failed check, 2 bad input in a file, 64 bad command line.
      """,
    version: SubDashVersion.text,
    // terminal-check is hidden from this list; `subdash terminal-check --help` documents it.
    subcommands: [Open.self, Show.self, List.self, Simulate.self, Extend.self, Import.self, Fetch.self, Verify.self, Listen.self, Serve.self, Token.self, Deliver.self, Lock.self, CertificateAuthority.self, Database.self, TerminalCheck.self],
    defaultSubcommand: Open.self)
}
