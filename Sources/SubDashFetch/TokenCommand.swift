import AppStoreAPI
import ArgumentParser
import Foundation

/// `subdash token`: the bearer token (ES256 JWT) the App Store Server API wants, signed with the
/// In-App Purchase key, for curl against `subdash serve` (or Apple). The same signing `fetch`
/// uses (AppStoreAPI's BearerToken) and the same key options as `serve` (`--key`, `--key-id`,
/// `--issuer-id`, `--bundle-id`) or `fetch` (`--key-file`, the environment, a profile); the key
/// file must pass the same private-file check (mode 600, not a symbolic link).
struct TokenCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "subdash token",
    abstract: "Print a bearer token for the App Store Server API (curl against `subdash serve`).",
    discussion: """
      Prints one line, the token, on stdout: curl -H "Authorization: Bearer $(subdash token …)" URL. \
      It is valid for 20 minutes (Apple refuses more than 60). Credentials come from the flags, else \
      SUBDASH_APPSTORE_KEY_FILE / _KEY_ID / _ISSUER_ID / _BUNDLE_ID, else a profile, as for fetch. \
      Exit codes: 0 printed; 2 credentials missing or refused. See docs/serve.md.
      """)

  @Option(name: .customLong("key"), help: ArgumentHelp("The In-App Purchase key (.p8), as `serve --key` names it (mode 600).", valueName: "FILE.p8"))
  var key: String?
  @Option(name: .customLong("key-file"), help: ArgumentHelp("The same, as `fetch --key-file` names it.", valueName: "FILE.p8"))
  var keyFile: String?
  @Option(name: .customLong("key-id"), help: "The key's ID (kid).") var keyID: String?
  @Option(name: .customLong("issuer-id"), help: "The issuer ID (iss).") var issuerID: String?
  @Option(name: .customLong("bundle-id"), help: "The app's bundle ID (bid).") var bundleID: String?
  @Option(help: ArgumentHelp("A credentials profile (key = value lines), as for fetch.", valueName: "FILE")) var profile: String?

  func validate() throws {
    if key != nil && keyFile != nil { throw ValidationError("give --key or --key-file, not both") }
  }

  func run() throws {
    let token: String
    do {
      let credentials = try CredentialLoader.load(
        flags: .init(keyFile: key ?? keyFile, keyID: keyID, issuerID: issuerID, bundleID: bundleID, profile: profile),
        environment: ProcessInfo.processInfo.environment)
      token = try BearerToken(credentials: credentials).token(now: Date())
    } catch {
      FileHandle.standardError.write(Data("subdash: \(error)\n".utf8))
      throw ExitCode(2)
    }
    print(token)
  }
}
