import AppStoreSigning
import ArgumentParser
import DashModel
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues

/// `subdash ca …`: the local test CA that signs like the App Store (root → intermediate with
/// Apple's WWDR OID → leaf with Apple's receipt-signing OID). Its JWS verify only where its root is
/// trusted (`subdash verify --root`, `subdash listen --root`, Apple's SignedDataVerifier given the
/// root), never as Apple's.
struct CertificateAuthority: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ca",
    abstract: "The local test CA that signs notifications and transactions like the App Store (init, show, sign).",
    subcommands: [Init.self, ShowCA.self, Sign.self])

  /// `$XDG_CONFIG_HOME/subdash/ca`, else `~/.config/subdash/ca`.
  static func defaultDirectory() -> String { LocalCertificateAuthority.defaultDirectory() }

  struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "init",
      abstract: "Create the CA (keys 0600 in a 0700 directory); refuses to replace an existing one.")
    @Argument(help: "Where to keep it (default: ~/.config/subdash/ca).") var directory: String?

    func run() throws {
      let dir = directory ?? CertificateAuthority.defaultDirectory()
      if directory == nil { _ = mkdir(PathName.directory(of: PathName.directory(of: dir)), 0o700); _ = mkdir(PathName.directory(of: dir), 0o700) }
      let ca: LocalCertificateAuthority
      do {
        ca = try LocalCertificateAuthority.create()
        try ca.save(to: dir)
      } catch { throw badInput(oneLine(error)) }
      print("created a local App Store test CA in \(dir)")
      for line in ca.trustLines(directory: dir) { print(line) }
    }
  }

  struct ShowCA: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Print where the CA's root is and its fingerprint.")
    @Argument(help: "The CA directory (default: ~/.config/subdash/ca).") var directory: String?

    func run() throws {
      let dir = directory ?? CertificateAuthority.defaultDirectory()
      let ca: LocalCertificateAuthority
      do { ca = try LocalCertificateAuthority.load(from: dir) } catch { throw badInput(oneLine(error) + " (create one with: subdash ca init)") }
      for line in ca.trustLines(directory: dir) { print(line) }
    }
  }

  struct Sign: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "sign",
      abstract: "Sign a decoded payload (JSON: a transaction, renewal info or notification) into a compact JWS on stdout.",
      discussion: "With --notification-body the output is {\"signedPayload\": \"…\"}, ready to POST to a backend or `subdash listen`.")
    @Argument(help: "The payload file (JSON), or - for stdin.") var payload: String
    @Option(help: "The CA directory (default: ~/.config/subdash/ca).") var ca: String?
    @Flag(name: .customLong("notification-body")) var notificationBody = false

    func run() throws {
      guard let bytes = readInput(payload) else { throw badInput("\(payload): cannot read") }
      guard case .object = try? JSONParser.parse(bytes) else { throw badInput("\(payload): not a JSON object") }
      let authority: LocalCertificateAuthority
      do { authority = try LocalCertificateAuthority.load(from: ca ?? CertificateAuthority.defaultDirectory()) } catch {
        throw badInput(oneLine(error) + " (create one with: subdash ca init)")
      }
      let jws: String
      do { jws = try authority.sign(payloadJSON: bytes) } catch { throw badInput(oneLine(error)) }
      print(notificationBody ? #"{"signedPayload":"\#(jws)"}"# : jws)
    }
  }
}
