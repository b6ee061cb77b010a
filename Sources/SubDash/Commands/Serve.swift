import ArgumentParser

/// `subdash serve …` is `subdash listen --serve-api …`: the local App Store both receives
/// notifications and answers the App Store Server API for the subscribers in DIR.
struct Serve: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Answer the App Store Server API for the subscribers in DIR, signed by the local test CA, and receive notifications (runs subdash-listen --serve-api).")

  @Argument(parsing: .captureForPassthrough, help: "--port PORT --key-id KID --issuer-id ISS --key FILE.p8 --bundle-id ID [--ca DIR] [--notify URL] [--notify-timeout S] [--app-apple-id N] [--rate-limit N/s] [--fault FAULT]... DIR.")
  var arguments: [String] = []

  func run() throws {
    // subdash-listen's own help is `subdash listen`'s: serve's options and endpoints are said here.
    if arguments.contains("--help") || arguments.contains("-h") {
      print(Self.help)
      return
    }
    try Fetch.replaceProcess(with: "subdash-listen", ["--serve-api"] + arguments, command: "serve")
  }

  static let help = """
    OVERVIEW: The local App Store: answer the App Store Server API for the subscribers in DIR (signed
    by the local test CA) and receive notifications on the same port.

    USAGE: subdash serve --port PORT --key-id KID --issuer-id ISSUER --key FILE.p8 --bundle-id ID
                         [--host H] [--ca DIR] [--root CERT]... [--notify URL] [--app-apple-id N]
                         DIR | --db postgres://USER@HOST/DATABASE

    OPTIONS:
      --port PORT          The port (0: any free port; the chosen one is printed).
      --host H             The address to listen on (default 127.0.0.1).
      --key-id KID         The key ID bearer tokens must name (kid).
      --issuer-id ISSUER   The issuer ID bearer tokens must carry (iss).
      --key FILE           The In-App Purchase key (.p8) that signs bearer tokens, or its public key (PEM).
      --bundle-id ID       The app: tokens must carry it (bid); notifications for other apps are refused.
      --ca DIR             The local test CA that signs answers (default ~/.config/subdash/ca, created
                           when missing); its root is trusted for incoming notifications too.
      --root CERT          Also trust this root for incoming notifications (repeatable).
      --notify URL         Where Request a Test Notification and a mass extension's SUMMARY go
                           (default: this server's own receiver).
      --notify-timeout S   Seconds such a TEST has for its whole exchange with --notify before its
                           attempt is TIMED_OUT and the request answered (default 5; 0.1-60).
      --app-apple-id N     appAppleId in answers and notifications.
      --db URL             Answer from the team database instead of DIR (or SUBDASH_DB, --db-file PATH);
                           writes go to each subscriber's row under its lock (docs/serve.md).
      --rate-limit N/s     At most N requests a second per endpoint; more get Apple's 429 (4290000)
                           with Retry-After (UNIX ms), so clients' retries can be tested.
      --fault FAULT        The next request meets this failure first: STATUS:CODE (500:5000001, with
                           Apple's error body), STATUS (503, no body) or delay:SECONDS; repeatable,
                           met in order (docs/notifications.md).
      --max-connections N, --idle-timeout S   Connection limits (see subdash listen --help).

    ENDPOINTS (production /inApps/..., sandbox /sandbox/inApps/...): Get All Subscription Statuses,
    Get Transaction Info, Get Transaction History (v1 and v2), Get Refund History, Get Notification
    History, Look Up Order ID, Request a Test Notification and its status, Extend a Subscription
    Renewal Date, Extend Subscription Renewal Dates for All Active Subscribers and its status, Send
    Consumption Information, Set App Account Token, Get App Transaction Info, Finish Transaction.
    Any other path takes notifications (POST).
    Details: docs/notifications.md.
    """
}
