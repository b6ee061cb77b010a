import Crypto
import DashModel
import Foundation
import SubscriberStorage

/// Finds the four credential values: flags win, then environment variables, then a profile file.
/// The profile (and the .p8 it names) must not be readable by group or others: it grants API access
/// to every customer's purchases, so a loose mode is refused rather than warned about.
public enum CredentialLoader {
  public struct Flags: Sendable {
    public var keyFile: String?
    public var keyID: String?
    public var issuerID: String?
    public var bundleID: String?
    public var profile: String?
    public init(keyFile: String? = nil, keyID: String? = nil, issuerID: String? = nil, bundleID: String? = nil, profile: String? = nil) {
      self.keyFile = keyFile
      self.keyID = keyID
      self.issuerID = issuerID
      self.bundleID = bundleID
      self.profile = profile
    }
  }

  /// Environment variable names, documented in docs/fetch.md.
  public static let keyFileVariable = "SUBDASH_APPSTORE_KEY_FILE"
  public static let keyIDVariable = "SUBDASH_APPSTORE_KEY_ID"
  public static let issuerIDVariable = "SUBDASH_APPSTORE_ISSUER_ID"
  public static let bundleIDVariable = "SUBDASH_APPSTORE_BUNDLE_ID"
  public static let profileVariable = "SUBDASH_APPSTORE_PROFILE"

  /// Default profile, used only when it exists: `$HOME/.config/subdash/appstore.profile`.
  public static func defaultProfilePath(environment: [String: String]) -> String? {
    environment["HOME"].map { "\($0)/.config/subdash/appstore.profile" }
  }

  public static func load(flags: Flags, environment: [String: String]) throws(AppStoreAPIError) -> Credentials {
    var profile: [String: String] = [:]
    if let path = flags.profile ?? environment[profileVariable] {
      profile = try readProfile(path)
    } else if let path = defaultProfilePath(environment: environment), FileManager.default.fileExists(atPath: path) {
      profile = try readProfile(path)
    }
    func pick(_ flag: String?, _ variable: String, _ profileKey: String, _ flagName: String) throws(AppStoreAPIError) -> String {
      if let v = flag ?? environment[variable] ?? profile[profileKey], !v.isEmpty { return v }
      throw .credentials("missing \(flagName) (or \(variable), or `\(profileKey) = …` in a profile)")
    }
    let keyFile = try pick(flags.keyFile, keyFileVariable, "key-file", "--key-file")
    let keyID = try pick(flags.keyID, keyIDVariable, "key-id", "--key-id")
    let issuerID = try pick(flags.issuerID, issuerIDVariable, "issuer-id", "--issuer-id")
    let bundleID = try pick(flags.bundleID, bundleIDVariable, "bundle-id", "--bundle-id")
    return Credentials(privateKey: try readKey(keyFile), keyID: keyID, issuerID: issuerID, bundleID: bundleID)
  }

  /// `key = value` lines; `#` starts a comment. Unknown keys are an error so a typo is not silently ignored.
  static func readProfile(_ path: String) throws(AppStoreAPIError) -> [String: String] {
    guard let text = String(validating: try readPrivate(path, what: "profile"), as: UTF8.self) else {
      throw .credentials("\(path): cannot read profile (not UTF-8)")
    }
    let known: Set<String> = ["key-file", "key-id", "issuer-id", "bundle-id"]
    var values: [String: String] = [:]
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      guard let eq = line.firstIndex(of: "=") else { throw .credentials("\(path):\(index + 1): expected `key = value`") }
      let key = line[..<eq].trimmingCharacters(in: .whitespaces)
      let value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
      guard known.contains(key) else {
        throw .credentials("\(path):\(index + 1): unknown key `\(key)` (expected key-file, key-id, issuer-id, bundle-id)")
      }
      // A relative key path is relative to the profile, so a profile and its key can move together.
      if key == "key-file", !value.hasPrefix("/") {
        values[key] = (URL(fileURLWithPath: path).deletingLastPathComponent().path) + "/" + value
      } else {
        values[key] = value
      }
    }
    return values
  }

  /// The shared check (DashModel's PrivateFile): also `subdash serve --key` and `--db-file`.
  static func readPrivate(_ path: String, what: String) throws(AppStoreAPIError) -> [UInt8] {
    do { return try PrivateFile.read(path, what: what) } catch { throw .credentials(error.description) }
  }

  static func readKey(_ path: String) throws(AppStoreAPIError) -> P256.Signing.PrivateKey {
    guard let pem = String(validating: try readPrivate(path, what: "key file"), as: UTF8.self) else {
      throw .credentials("\(path): cannot read key file (not UTF-8)")
    }
    do {
      return try P256.Signing.PrivateKey(pemRepresentation: pem)
    } catch {
      // Never echo the file's content: it is (or was meant to be) a private key.
      throw .credentials("\(path): not a P-256 private key in PEM (.p8 \"BEGIN PRIVATE KEY\") form")
    }
  }
}
