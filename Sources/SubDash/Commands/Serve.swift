import ArgumentParser

/// `subdash serve …` is `subdash listen --serve-api …`: the local App Store both receives
/// notifications and answers the App Store Server API for the subscribers in DIR.
struct Serve: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Answer the App Store Server API for the subscribers in DIR, signed by the local test CA, and receive notifications (runs subdash-listen --serve-api).")

  @Argument(parsing: .captureForPassthrough, help: "--port PORT --key-id KID --issuer-id ISS --key FILE.p8 --bundle-id ID [--ca DIR] [--notify URL] [--app-apple-id N] DIR.")
  var arguments: [String] = []

  func run() throws { try Fetch.replaceProcess(with: "subdash-listen", ["--serve-api"] + arguments, command: "serve") }
}
