import ArgumentParser

@main
struct SubDash: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "subdash", abstract: "A terminal dashboard for one App Store subscriber.")
  func run() throws { print("subdash") }
}
