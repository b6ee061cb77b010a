import AppStoreSigning
import ArgumentParser
import DashModel
import DashRuntime
import DashView
import Dispatch
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues
import SubscriberImport

/// `subdash verify [--root CERT]… [--json] INPUT…`: is this App Store data really Apple's?
/// One line per JWS: `INPUT: valid: Apple-signed transaction (Sandbox), signed 2025-…Z`, or
/// `INPUT: invalid: <reason>`. An input holding several JWS (an API response) gets one line per
/// signed field, labelled `INPUT $.json.path`.
struct Verify: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract: "Verify App Store signed data (JWS) against Apple Root CA - G3.",
    discussion: """
      INPUT is a file holding a compact JWS, a notification body {"signedPayload": "…"}, or an App Store \
      Server API response (every signed* field is verified), or - for stdin. The chain must be valid at the \
      payload's signedDate (offline, as Apple's libraries do); a notification's nested signed transaction \
      and renewal info are verified too. Xcode and LocalTesting data are decoded but reported as unverified.
      Exit codes: 0 every JWS valid; 2 anything invalid or unverified, or an unreadable --root.
      """)

  @Option(name: .customLong("root"), help: ArgumentHelp("Also trust this root certificate (DER or PEM); repeatable. Never reported as Apple's.", valueName: "CERT"))
  var roots: [String] = []

  @Flag(name: .long, help: "Print one JSON object per JWS (verdict, signer, environment, signedDate, kind, payload) instead of lines.")
  var json = false

  @Argument(help: "Files to verify, or - for stdin.")
  var inputs: [String]

  func run() throws {
    var extra: [TrustedRoot] = []
    for path in roots {
      guard let bytes = readInput(path) else { throw badInput("\(path): cannot read the --root certificate") }
      do { extra.append(try TrustedRoot(fileContents: bytes, source: path)) } catch { throw badInput(oneLine(error)) }
    }
    let verifier: JWSVerifier
    do { verifier = try JWSVerifier(extraRoots: extra) } catch { throw badInput(oneLine(error)) }
    let inputs = self.inputs, json = self.json
    let allValid = runBlocking {
      var allValid = true
      for input in inputs {
        // An input that cannot be read is an error of the command (stderr, one line, the one
        // prefix), not a verdict on signed data.
        let bytes: [UInt8]
        do throws(ImportError) { bytes = try Importer.readInput(input).bytes } catch {
          LineOut.stderr("subdash: " + error.description)
          allValid = false
          continue
        }
        for line in await Self.report(input: input, bytes: bytes, verifier: verifier, json: json) {
          allValid = allValid && line.valid
          LineOut.stdout(line.text)
        }
      }
      return allValid
    }
    if !allValid { throw ExitCode(2) }
  }

  struct Line: Sendable {
    let text: String
    let valid: Bool
  }

  static func report(input: String, verifier: JWSVerifier, json: Bool) async -> [Line] {
    await report(input: input, bytes: readInput(input), verifier: verifier, json: json)
  }

  static func report(input: String, bytes: [UInt8]?, verifier: JWSVerifier, json: Bool) async -> [Line] {
    let items: [SignedItem]
    switch signedItems(bytes) {
    case .failure(let error): return [line(input, nil, .failure(error), json: json)]
    case .success(let found): items = found
    }
    var lines: [Line] = []
    for item in items {
      do {
        lines.append(line(input, item.path, .success(try await verifier.verify(item.jws)), json: json))
      } catch {
        lines.append(line(input, item.path, .failure(error as? SigningError ?? SigningError(oneLine(error))), json: json))
      }
    }
    return lines
  }

  /// A JWS found in an input, with its JSON path when it came from inside a JSON document.
  struct SignedItem {
    let path: JSONPath?
    let jws: String
  }

  /// The JWS an input holds: the whole text, `signedPayload` of a notification body, or every
  /// string (or array of strings) under a key starting with "signed" in an API response.
  static func signedItems(_ bytes: [UInt8]?) -> Result<[SignedItem], SigningError> {
    guard var bytes else { return .failure(SigningError("cannot read the input")) }
    // A UTF-8 byte order mark (Windows editors add one) carries no meaning; the JSON parser
    // skips it too, but a compact JWS after one would otherwise be read with it.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    // Trimmed as bytes: walking a JWS as Characters (grapheme breaking, Unicode tables) cost
    // about a tenth of a whole `subdash verify` process (perf, docs/benchmarks.md).
    func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
    // By index, one copy into the String: a reversed-twice slice copied the whole input through a
    // lazy reversed view byte by byte (4 % of a `verify` process).
    var start = 0, end = bytes.count
    while start < end, isSpace(bytes[start]) { start += 1 }
    while end > start, isSpace(bytes[end - 1]) { end -= 1 }
    let text = String(decoding: bytes[start..<end], as: UTF8.self)
    if text.isEmpty { return .failure(SigningError("input is empty")) }
    guard text.first == "{" || text.first == "[" else { return .success([SignedItem(path: nil, jws: text)]) }
    let document: JSON
    do { document = try JSONParser.parse(bytes) } catch { return .failure(SigningError("not JSON (\(error.description)) and not a compact JWS")) }
    if let object = document.objectValue, object.count == 1, let payload = object["signedPayload"]?.stringValue {
      return .success([SignedItem(path: nil, jws: payload)])
    }
    var found: [SignedItem] = []
    collect(document, at: .root, into: &found)
    if found.isEmpty, let object = document.objectValue, let known = ResponseWithoutSubscriber.recognise(object) {
      return .failure(SigningError("this is \(known.name); it holds no signed data"))
    }
    if found.isEmpty {
      return .failure(SigningError("no signed* field found: expected a compact JWS, {\"signedPayload\": …} or an App Store Server API response"))
    }
    return .success(found)
  }

  private static func collect(_ value: JSON, at path: JSONPath, into found: inout [SignedItem]) {
    switch value {
    case .object(let object):
      for (key, child) in object.entries {
        let childPath = path.appending(key)
        if key.hasPrefix("signed") {
          if let jws = child.stringValue { found.append(SignedItem(path: childPath, jws: jws)); continue }
          if let list = child.arrayValue, list.allSatisfy({ $0.stringValue != nil }) {
            for (i, item) in list.enumerated() { found.append(SignedItem(path: childPath.appending(i), jws: item.stringValue!)) }
            continue
          }
        }
        collect(child, at: childPath, into: &found)
      }
    case .array(let list):
      for (i, item) in list.enumerated() { collect(item, at: path.appending(i), into: &found) }
    default: break
    }
  }

  static func line(_ input: String, _ path: JSONPath?, _ result: Result<VerifiedJWS, SigningError>, json: Bool) -> Line {
    let label = path.map { "\(input) \($0)" } ?? input
    if json { return Line(text: VerifyJSON.object(input: input, path: path, result), valid: isValid(result)) }
    switch result {
    case .failure(let error):
      return Line(text: Sanitizer.clean("\(label): invalid: \(error.message)"), valid: false)
    case .success(let verified):
      let verdict = isValid(result) ? "valid" : "unverified"
      let environment = verified.environment ?? "no environment"
      let date = verified.signedDate.map { ", signed \(iso8601($0))" } ?? ", no signedDate"
      return Line(
        text: Sanitizer.clean("\(label): \(verdict): \(signer(verified.signedBy).prefix) \(kindText(verified.kind)) (\(environment))\(date)\(signer(verified.signedBy).suffix)"),
        valid: isValid(result))
    }
  }

  static func isValid(_ result: Result<VerifiedJWS, SigningError>) -> Bool {
    guard case .success(let verified) = result else { return false }
    if case .unverified = verified.signedBy { return false }
    return true
  }

  /// Words before the kind and after the date: only Apple's root earns "Apple-signed".
  static func signer(_ signedBy: SignedBy) -> (prefix: String, suffix: String) {
    switch signedBy {
    case .apple: return ("Apple-signed", "")
    case .extraRoot(let name): return ("locally signed", " by trusted root \(name) (not Apple)")
    case .unverified(let environment): return ("\(environment)-signed", "; signature not checked (\(environment) data is never Apple's)")
    }
  }

  static func kindText(_ kind: PayloadKind) -> String {
    switch kind {
    case .transaction: return "transaction"
    case .renewalInfo: return "renewal info"
    case .notification(let type, let subtype): return "notification " + type + (subtype.map { "/" + $0 } ?? "")
    case .appTransaction: return "app transaction"
    case .other: return "payload"
    }
  }
}

/// A file's bytes, or stdin's for "-"; nil when it cannot be read. Read as `import` reads its
/// inputs: a regular file or a pipe, refused past the same size limit.
func readInput(_ path: String) -> [UInt8]? {
  try? Importer.readInput(path).bytes
}
