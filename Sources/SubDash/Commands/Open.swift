import ArgumentParser

/// `subdash [FILE]`: the interactive dashboard (written in App/).
struct Open: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "open", abstract: "Open the interactive dashboard (the default).")
  @Argument(help: "The state file. Without one, a demo subscriber opens in a temporary copy.")
  var file: String?
  func run() throws {}
}
