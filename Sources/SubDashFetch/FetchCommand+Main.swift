import CommandLineStyle

extension FetchCommand {
  /// `subdash token` runs this binary with `--print-token` first (it holds the App Store
  /// client's signing); anything else is `subdash fetch`. Command-line mistakes are reported as
  /// every subdash command reports them (CommandLineStyle).
  static func main() async {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == tokenFlag {
      CommandLineStyle.main(TokenCommand.self, arguments: Array(arguments.dropFirst()))
      return
    }
    await CommandLineStyle.mainAsync(Self.self, arguments: arguments)
  }

  /// The first argument `subdash token` passes; never a transaction id.
  static let tokenFlag = "--print-token"
}
