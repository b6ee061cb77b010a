import ArgumentParser

/// `subdash token …` runs `subdash-fetch --print-token …`: the bearer token is signed by the App
/// Store client's code (Foundation and swift-crypto), which `subdash` keeps out of its start-up.
struct Token: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "token",
    abstract: "Print a bearer token for the App Store Server API from the key options `serve` takes, for curl (see `subdash token --help`).")

  @Argument(parsing: .captureForPassthrough, help: "--key FILE.p8 --key-id KID --issuer-id ISSUER --bundle-id ID (or --key-file, the environment, --profile, as for fetch).")
  var arguments: [String] = []

  func run() throws { try Fetch.replaceProcess(with: "subdash-fetch", ["--print-token"] + arguments, command: "token") }
}
