import AppStoreSigning
import ArgumentParser
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NotificationReceiver
import SubscriberDatabase

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
      redelivery: 200, nothing changed; TEST: 200, logged), 400 for a body that is not a notification, \
      403 for a signature that does not chain to Apple Root CA G3 or a --root (or another bundle id), \
      413 over \(NotificationReceiver.bodyLimit / 1024) KiB, 415 without Content-Type application/json, \
      405 for another method, 500 when the write failed (Apple retries). Limits: docs/notifications.md.
      """)

  @Option(help: "The address to listen on.") var host = "127.0.0.1"
  @Option(help: "The port (0: any free port; the chosen one is printed).") var port: Int
  @Option(name: .customLong("root"), help: ArgumentHelp("Also trust this root (DER or PEM), e.g. `subdash ca init`'s; repeatable.", valueName: "CERT"))
  var roots: [String] = []
  @Option(name: .customLong("bundle-id"), help: "Refuse notifications for any other app.") var bundleId: String?
  @Option(name: .customLong("db"), help: ArgumentHelp("Apply to a team database instead of DIR.", valueName: "postgres://USER@HOST/DB"))
  var database: String?
  @Argument(help: "The directory of state files (created when missing). Not with --db.") var directory: String?

  func validate() throws {
    guard (directory == nil) != (database == nil) else { throw ValidationError("give DIR or --db URL") }
    guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
  }

  func run() async throws {
    var extra: [TrustedRoot] = []
    for path in roots {
      guard let data = FileManager.default.contents(atPath: path) else { throw fail("--root \(path): cannot read") }
      do { extra.append(try TrustedRoot(fileContents: [UInt8](data), source: path)) } catch { throw fail("--root \(path): \(error)") }
    }
    let verifier = try JWSVerifier(extraRoots: extra)
    if let directory {
      do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch { throw fail("\(directory): cannot create") }
      let receiver = NotificationReceiver(verifier: verifier, sink: DirectorySink(directory: directory), bundleId: bundleId)
      try await serve(receiver, target: directory)
    } else if let database {
      let url: DatabaseURL
      do { url = try DatabaseURL(database) } catch { throw fail(error.description) }
      let scratch = NSTemporaryDirectory() + "subdash-listen-\(getpid())"
      defer { DirectoryFiles.remove(scratch) }
      do {
        try await SubscriberDatabase.open(url) { db in
          try await db.migrate()
          let receiver = NotificationReceiver(verifier: verifier, sink: DatabaseSink(database: db, scratch: scratch), bundleId: bundleId)
          try await serve(receiver, target: url.description)
        }
      } catch let e as DatabaseError { throw fail(e.description, code: e.exitCode) }
    }
  }

  func serve(_ receiver: NotificationReceiver, target: String) async throws {
    let router = Router()
    // Any path: Apple posts to the URL configured in App Store Connect, whatever its path.
    // "**" matches one or more segments, so the bare "/" is registered too.
    let handle: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, context in
      let started = ContinuousClock.now
      var request = request
      let outcome: NotificationReceiver.Outcome
      do {
        let body = try await request.collectBody(upTo: NotificationReceiver.bodyLimit)
        outcome = await receiver.receive(body: Array(buffer: body), contentType: request.headers[.contentType])
      } catch {
        outcome = .init(status: 413, message: "refused: body over the \(NotificationReceiver.bodyLimit)-byte limit")
      }
      let took = ContinuousClock.now - started
      let ms = Double(took.components.seconds) * 1000 + Double(took.components.attoseconds) / 1e15
      log("\(outcome.status) \(outcome.message) (\(Int(ms.rounded())) ms)")
      return Response(status: .init(code: outcome.status), headers: [.contentType: "text/plain; charset=utf-8"],
                      body: .init(byteBuffer: ByteBuffer(string: outcome.message + "\n")))
    }
    router.on("/", method: .post, use: handle)
    router.on("**", method: .post, use: handle)
    for method in [HTTPRequest.Method.get, .put, .delete, .patch, .head, .options] {
      for path in ["/", "**"] {
        router.on(RouterPath(path), method: method) { _, _ -> Response in
          Response(status: .methodNotAllowed, headers: [.allow: "POST"], body: .init(byteBuffer: ByteBuffer(string: "refused: only POST\n")))
        }
      }
    }
    var logger = Logger(label: "subdash-listen")
    logger.logLevel = .critical
    let app = Application(
      router: router,
      configuration: .init(address: .hostname(host, port: port), serverName: "subdash-listen"),
      onServerRunning: { channel in
        // stdout, unbuffered: scripts wait for this line to learn the port.
        FileHandle.standardOutput.write(Data("listening on http://\(host):\(channel.localAddress?.port ?? port) → \(target)\n".utf8))
      },
      logger: logger)
    try await app.runService()
  }

  func log(_ line: String) { FileHandle.standardError.write(Data("subdash listen: \(line)\n".utf8)) }

  func fail(_ message: String, code: Int32 = 2) -> ExitCode {
    log(message)
    return ExitCode(code)
  }
}
