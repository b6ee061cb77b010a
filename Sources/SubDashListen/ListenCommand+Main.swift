import CommandLineStyle

extension ListenCommand {
  /// Command-line mistakes reported as every subdash command reports them (CommandLineStyle).
  /// `subdash serve` runs this binary with --serve-api: its mistakes name serve's usage, not
  /// listen's.
  static func main() async {
    let serving = CommandLine.arguments.dropFirst().contains("--serve-api")
    await CommandLineStyle.mainAsync(Self.self, usage: serving ? serveUsage : nil)
  }

  static let serveUsage = CommandLineStyle.Usage(
    line: "subdash serve --port PORT --key-id KID --issuer-id ISSUER --key FILE.p8 --bundle-id ID [--host H] [--ca DIR] [--root CERT]... [--notify URL] [--app-apple-id N] DIR | --db URL",
    help: "subdash serve --help")
}
