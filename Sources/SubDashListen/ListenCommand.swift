import AppStoreSigning
import ArgumentParser
import Crypto
import DashModel
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import LocalAppStoreAPI
import NIOCore
import NotificationDelivery
import NotificationReceiver
import SubscriberDatabase
import CoreValues
import SubscriberStorage

/// `subdash listen` (run by `subdash`): receives App Store Server Notifications V2 on loopback (or
/// a host you name), verifies each and applies it to DIR/<originalTransactionId>.json or to a team
/// database. One log line per request on stderr.
@main
struct ListenCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "subdash listen",
    abstract: "Receive App Store Server Notifications V2: verify, then apply each to its subscriber's state file (or --db).",
    discussion: """
      POST / (any path) with {"signedPayload": "<JWS>"}. Answers 200 once the change is on disk (a \
      redelivery: 200, nothing changed; TEST and other notifications about the app: 200, logged), 400 for a body that is not a notification, \
      403 for a signature that does not chain to Apple Root CA G3 or a --root (or another bundle id), \
      409 for a subscriber of the other environment (Production vs Sandbox), \
      413 over \(NotificationReceiver.bodyLimit / 1024) KiB, 415 without Content-Type application/json, \
      405 for another method, 500 when the write failed (Apple retries). Limits: docs/notifications.md.
      """)

  @Option(help: "The address to listen on.") var host = "127.0.0.1"
  @Option(help: "The port (0: any free port; the chosen one is printed).") var port: Int
  @Option(name: .customLong("root"), help: ArgumentHelp("Also trust this root (DER or PEM), e.g. `subdash ca init`'s; repeatable.", valueName: "CERT"))
  var roots: [String] = []
  @Option(name: .customLong("bundle-id"), help: "Refuse notifications for any other app (without it every app's are applied, each new bundle id logged once).") var bundleId: String?
  @Option(name: .customLong("db"), help: ArgumentHelp("Apply to a team database instead of DIR (without DIR: $SUBDASH_DB). A password here is seen by every user in `ps`: prefer SUBDASH_DB, --db-file or ~/.pgpass.", valueName: "postgres://USER@HOST/DB"))
  var database: String?
  @Option(name: .customLong("db-file"), help: ArgumentHelp("Read the database URL from this private file (mode 600, not a symbolic link).", valueName: "PATH"))
  var databaseFile: String?
  @Argument(help: "The directory of state files (created when missing). Not with --db.") var directory: String?

  @Option(name: .customLong("max-connections"), help: "Connections kept open at once; one more closes an idle one to make room (never one sending a request).")
  var maxConnections = 256
  @Option(name: .customLong("idle-timeout"), help: ArgumentHelp("Seconds a connection may wait between requests (keep-alive, or opened and silent) before it is closed.", valueName: "S"))
  var idleTimeout = 30.0
  @Option(name: .customLong("header-timeout"), help: ArgumentHelp("Seconds from a request's first byte to the end of its head (a slow client is cut off).", valueName: "S"))
  var headerTimeout = 5.0
  @Option(name: .customLong("body-timeout"), help: ArgumentHelp("Seconds from a request's head to the end of its body.", valueName: "S"))
  var bodyTimeout = 10.0

  @Flag(name: .customLong("serve-api"), help: "Also answer the App Store Server API for the subscribers in DIR (what `subdash serve` runs).")
  var serveAPI = false
  @Option(name: .customLong("key-id"), help: "With --serve-api: the key ID bearer tokens must name (kid).") var keyId: String?
  @Option(name: .customLong("issuer-id"), help: "With --serve-api: the issuer ID bearer tokens must carry (iss).") var issuerId: String?
  @Option(name: .customLong("key"), help: ArgumentHelp("With --serve-api: the .p8 private key (or its public key, PEM) that signs bearer tokens.", valueName: "FILE"))
  var key: String?
  @Option(name: .customLong("ca"), help: ArgumentHelp("With --serve-api: the local test CA that signs answers (created when missing).", valueName: "DIR"))
  var ca: String?
  @Option(name: .customLong("app-apple-id"), help: "With --serve-api: appAppleId in answers.") var appAppleId: Int64?
  @Option(name: .customLong("notify"), help: ArgumentHelp("With --serve-api: where Request a Test Notification sends its TEST (default: this server's own receiver).", valueName: "URL"))
  var notify: String?
  @Option(name: .customLong("notify-timeout"), help: ArgumentHelp("With --serve-api: seconds a TEST or SUMMARY has for its whole exchange with --notify before it is TIMED_OUT (default 5; 0.1-60).", valueName: "S"))
  var notifyTimeout: Double?
  @Option(name: .customLong("rate-limit"), help: ArgumentHelp("With --serve-api: requests a second per endpoint; more are refused with 429, 4290000 and Retry-After, as Apple does.", valueName: "N/s"))
  var rateLimit: String?
  @Option(name: .customLong("fault"), help: ArgumentHelp("With --serve-api: the next request meets this failure instead of its answer: STATUS[:CODE] (500:5000001, 503) or delay:SECONDS; repeatable, met in order.", valueName: "FAULT"))
  var faults: [String] = []

  func validate() throws {
    if let notifyTimeout, !(0.1...60).contains(notifyTimeout) { throw ValidationError("--notify-timeout must be 0.1 to 60 seconds") }
    let namesDatabase = database != nil || databaseFile != nil
    guard !(database != nil && databaseFile != nil) else { throw ValidationError("give --db or --db-file, not both") }
    guard !(directory != nil && namesDatabase) else { throw ValidationError("give DIR or --db URL, not both") }
    guard directory != nil || namesDatabase || ProcessInfo.processInfo.environment[DatabaseURLSource.variable] != nil else {
      throw ValidationError("give DIR or --db URL (or set SUBDASH_DB)")
    }
    if serveAPI {
      guard keyId != nil, issuerId != nil, key != nil, bundleId != nil else {
        throw ValidationError("the API (subdash serve) checks bearer tokens as Apple does: give --key-id, --issuer-id, --key FILE and --bundle-id")
      }
    } else if keyId != nil || issuerId != nil || key != nil || ca != nil || appAppleId != nil || notify != nil || rateLimit != nil || !faults.isEmpty {
      throw ValidationError("--key-id, --issuer-id, --key, --ca, --app-apple-id, --notify, --rate-limit and --fault go with --serve-api")
    }
    for fault in faults where LocalAppStoreAPI.Fault(fault) == nil {
      throw ValidationError("--fault \(LogText.clip(fault, limit: 40)): give STATUS[:CODE] (400…599, an Apple code of that status: 500:5000001) or delay:SECONDS (up to 600)")
    }
    if let notify, let why = OutboundURL.refusal(notify) { throw ValidationError("--notify \(LogText.clip(notify, limit: 120)): \(why)") }
    if let rateLimit, LocalAppStoreAPI.rateLimit(rateLimit) == nil { throw ValidationError("--rate-limit must be N/s with N 1…9999999 (e.g. 5/s)") }
    guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
    guard (1...100_000).contains(maxConnections) else { throw ValidationError("--max-connections must be 1…100000") }
    for (name, seconds) in [("--idle-timeout", idleTimeout), ("--header-timeout", headerTimeout), ("--body-timeout", bodyTimeout)] {
      guard seconds > 0, seconds <= 3600 else { throw ValidationError("\(name) must be more than 0 and at most 3600 seconds") }
    }
  }

  func run() async throws {
    DatabaseURLSource.hidePasswordsInArguments()  // a --db typed with its password: `ps` shows ***
    if serveAPI { _ = try bearerKey() }  // a refused key leaves nothing created (no DIR, no CA)
    var extra: [TrustedRoot] = []
    for path in roots {
      guard let data = FileManager.default.contents(atPath: path) else { throw fail("--root \(path): cannot read") }
      do { extra.append(try TrustedRoot(fileContents: [UInt8](data), source: path)) } catch { throw fail("--root \(path): \(error)") }
    }
    // `serve` signs with its CA and sends its own TEST and SUMMARY notifications to this receiver:
    // the receiver trusts that CA too, or it would refuse what its own server sent.
    let authority = serveAPI ? try localAuthority() : nil
    if let authority { extra.append(try TrustedRoot(fileContents: authority.rootDER, source: "the local CA (--ca)")) }
    let verifier = try JWSVerifier(extraRoots: extra)
    if let directory {
      if let why = PrivateDirectory.create(directory) { throw fail("\(directory): \(why)") }
      let receiver = NotificationReceiver(verifier: verifier, sink: DirectorySink(directory: directory), bundleId: bundleId)
      guard let authority else { return try await serve(receiver, target: directory) }
      let sender = HTTPNotificationSender()
      do {
        let api = try makeAPI(directory: directory, authority: authority, sender: sender)
        try await serve(receiver, api: api, target: directory)
      } catch {
        await sender.shutdown()
        throw error
      }
      await sender.shutdown()
    } else {
      let environment = ProcessInfo.processInfo.environment
      let url: DatabaseURL
      do {
        guard let text = try DatabaseURLSource.text(option: database, file: databaseFile, environment: { environment[$0] }) else {
          throw fail("give DIR or --db URL (or set SUBDASH_DB)", code: 64)
        }
        url = try DatabaseURL(text).withLibpqPassword(environment: environment, warn: log)
      } catch let e as PrivateFile.Refusal { throw fail(e.description, code: 64) } catch let e as DatabaseError { throw fail(e.description, code: e.exitCode) }
      // Every processed customer passes through here: a fresh private directory (mkdtemp, 0700,
      // checked ours), never a predictable name someone else could have made first.
      let scratch: String
      do { scratch = try PrivateDirectory.makeTemporary("subdash-listen") } catch { throw fail(error.description) }
      let removal = RemoveOnSignal(scratch)
      defer { withExtendedLifetime(removal) { PrivateDirectory.remove(scratch) } }
      do {
        try await SubscriberDatabase.open(url) { db in
          try await db.migrate()
          let receiver = NotificationReceiver(verifier: verifier, sink: StoreSink.database(db, scratch: scratch), bundleId: bundleId)
          // serve --db: the API answers from the database too (ServeFromDatabase.swift).
          if let authority { return try await serveFromDatabase(db, receiver: receiver, authority: authority, scratch: scratch, url: url) }
          try await serve(receiver, target: url.description)
        }
      } catch let e as DatabaseError { throw fail(e.description, code: e.exitCode) }
    }
  }

  /// The local test CA that signs `serve`'s answers, created on first use as for `subdash deliver`.
  func localAuthority() throws -> LocalCertificateAuthority {
    do { return try LocalCertificateAuthority.loadOrCreate(in: ca, trustedBy: "clients", say: log) } catch {
      throw fail("\(ca ?? LocalCertificateAuthority.defaultDirectory()): \(error)")
    }
  }

  /// The API's settings from the options, answers signed by `authority`.
  func makeAPI(directory: String, authority: LocalCertificateAuthority, sender: HTTPNotificationSender, store: (any SubscriberStore)? = nil,
               retentionStorage: (any RetentionConfigurationStorage)? = nil) throws -> LocalAppStoreAPI {
    guard let keyId, let issuerId, let bundleId else { throw fail("--serve-api needs --key-id, --issuer-id, --key and --bundle-id") }
    let check = BearerCheck(publicKey: try bearerKey(), keyID: keyId, issuerID: issuerId, bundleID: bundleId)
    let api = LocalAppStoreAPI(directory: directory, settings: .init(check: check, appAppleId: appAppleId, notifyURL: notify,
                                                                                    rateLimit: rateLimit.flatMap(LocalAppStoreAPI.rateLimit),
                                                                                    notifyTimeoutMs: Int(((notifyTimeout ?? 5) * 1000).rounded())),
                               authority: authority, sender: sender, store: store, retentionStorage: retentionStorage)
    api.inject(faults.compactMap(LocalAppStoreAPI.Fault.init))
    return api
  }

  /// The key bearer tokens are checked with, from `--key`. A private key is a secret: refused when
  /// others may read it or it is reached through a symbolic link, by the check `fetch` makes
  /// (PrivateFile), before anything is created. A public key is no secret.
  func bearerKey() throws -> P256.Signing.PublicKey {
    guard let key else { throw fail("--serve-api needs --key-id, --issuer-id, --key and --bundle-id") }
    var refusal: PrivateFile.Refusal?
    let text: String
    do { text = String(decoding: try PrivateFile.read(key, what: "--key"), as: UTF8.self) } catch {
      refusal = error
      guard let loose = try? String(contentsOfFile: key, encoding: .utf8) else { throw fail(error.description) }
      text = loose
    }
    let publicKey: P256.Signing.PublicKey
    if let privateKey = try? P256.Signing.PrivateKey(pemRepresentation: text) {
      if let refusal { throw fail(refusal.description) }
      publicKey = privateKey.publicKey
    } else if let k = try? P256.Signing.PublicKey(pemRepresentation: text) {
      publicKey = k
    } else {
      throw fail("--key \(key): not a P-256 private key (.p8) or public key in PEM")
    }
    return publicKey
  }

  func serve(_ receiver: NotificationReceiver, api: LocalAppStoreAPI? = nil, target: String) async throws {
    if let api, let note = await api.recordDeveloperKey() { log(note) }
    let router = Router()
    // Any path: Apple posts to the URL configured in App Store Connect, whatever its path.
    // "**" matches one or more segments, so the bare "/" is registered too.
    let handle: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, context in
      if let api, LocalAppStoreAPI.handles(request.uri.path) { return try await answer(api, request) }
      guard request.method == .post else {
        return Response(status: .methodNotAllowed, headers: [.allow: "POST"], body: .init(byteBuffer: ByteBuffer(string: "refused: only POST\n")))
      }
      let started = ContinuousClock.now
      var request = request
      let outcome: NotificationReceiver.Outcome
      do {
        let body = try await request.collectBody(upTo: NotificationReceiver.bodyLimit)
        outcome = await receiver.receive(body: Array(buffer: body), contentType: request.headers[.contentType])
      } catch is NIOTooManyBytesError {
        outcome = .init(status: 413, message: "refused: body over the \(NotificationReceiver.bodyLimit)-byte limit")
      } catch {
        // Anything else that stops the body being read is the request's fault (a chunk size that
        // is not hexadecimal, a body cut short): a bad request, not one too large.
        outcome = .init(status: 400, message: "refused: the request body could not be read (\(LogText.clip(String(describing: error))))")
      }
      let took = ContinuousClock.now - started
      let ms = Double(took.components.seconds) * 1000 + Double(took.components.attoseconds) / 1e15
      // A failure here (500) is local: its detail names files, errno text, what a file holds. That
      // is the operator's, in this log; the sender gets a reference to it and nothing else.
      let ref = outcome.status == 500 ? String(UInt64.random(in: 1 << 44 ..< 1 << 48), radix: 16) : nil
      if let notice = outcome.notice { log(notice) }
      log("\(outcome.status) \(outcome.message)\(ref.map { " (ref \($0))" } ?? "") (\(Int(ms.rounded())) ms)")
      let answer = ref.map { "not applied; see the receiver's log (ref \($0))" } ?? outcome.message
      var headers: HTTPFields = [.contentType: "text/plain; charset=utf-8"]
      if let seconds = outcome.retryAfterSeconds { headers[.retryAfter] = String(seconds) }
      return Response(status: .init(code: outcome.status), headers: headers,
                      body: .init(byteBuffer: ByteBuffer(string: answer + "\n")))
    }
    for method in [HTTPRequest.Method.post, .get, .put, .delete, .patch, .head, .options, .trace] {
      for path in ["/", "**"] { router.on(RouterPath(path), method: method, use: handle) }
    }
    var logger = Logger(label: "subdash-listen")
    logger.logLevel = .critical
    // Limits (docs/notifications.md, ConnectionGuard.swift): deadlines for a request's head and
    // body, an idle timeout between requests, and at most --max-connections open, an idle one
    // giving way to a new one (never one sending a request, never a backlog senders wait in).
    let registry = ConnectionRegistry(limits: connectionLimits)
    let http1 = HTTP1Channel.Configuration(idleTimeout: connectionLimits.idleTimeout)
    let app = Application(
      router: router,
      server: HTTPServerBuilder { responder in GuardedHTTP1Channel(inner: HTTP1Channel(responder: responder, configuration: http1), registry: registry) },
      configuration: .init(address: .hostname(host, port: port), serverName: "subdash-listen"),
      onServerRunning: { channel in
        api?.receiverStarted(at: "http://\(host):\(channel.localAddress?.port ?? port)/")
        // Said before the first request, so an operator who left out --bundle-id sees it applies
        // every app's notifications (each new app is logged once as it comes).
        log(receiver.acceptedApps)
        // stdout, unbuffered: scripts wait for this line to learn the port.
        FileHandle.standardOutput.write(Data("listening on http://\(host):\(channel.localAddress?.port ?? port) → \(target)\n".utf8))
        if let banner = serveBanner(port: channel.localAddress?.port ?? port) { FileHandle.standardOutput.write(Data(banner.utf8)) }
      },
      logger: logger)
    try await app.runService()
  }

  var connectionLimits: ConnectionLimits {
    func amount(_ seconds: Double) -> TimeAmount { .milliseconds(Int64((seconds * 1000).rounded())) }
    return ConnectionLimits(maxConnections: maxConnections, headerTimeout: amount(headerTimeout), bodyTimeout: amount(bodyTimeout),
                            idleTimeout: amount(idleTimeout))
  }

  /// An App Store Server API request (APIExchange.swift).
  func answer(_ api: LocalAppStoreAPI, _ request: Request) async throws -> Response { await APIExchange.answer(api, request, log: log) }

  func log(_ line: String) { FileHandle.standardError.write(Data("\(logPrefix): \(line)\n".utf8)) }

  /// An error that ends the command: the one error prefix every subdash command uses (its log
  /// lines keep `subdash listen:` / `subdash serve:`).
  func fail(_ message: String, code: Int32 = 2) -> ExitCode {
    FileHandle.standardError.write(Data("subdash: \(message)\n".utf8))
    return ExitCode(code)
  }
}
