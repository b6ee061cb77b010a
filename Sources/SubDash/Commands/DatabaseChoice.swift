import DashModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberStorage

/// The team database a command was given: `--db URL`, `--db-file PATH` or (where the command has
/// nothing else to open) `SUBDASH_DB`. The URL may hold a password, so it goes to `subdash-db` and
/// `subdash-listen` in their environment, never in their arguments (`ps` shows every user those).
enum DatabaseChoice {
  static var inEnvironment: Bool { getenv(DatabaseURLSource.variable).map { $0.pointee != 0 } ?? false }

  /// The URL text; nil when none was given (and the environment is not to be read).
  static func url(option: String?, file: String?, readEnvironment: Bool) throws -> String? {
    if option != nil { DatabaseURLSource.hidePasswordsInArguments() }
    do {
      return try DatabaseURLSource.text(option: option, file: file) { name in
        guard readEnvironment, let value = getenv(name) else { return nil }
        return String(cString: value)
      }
    } catch { throw badInput(error.description) }
  }

  /// `arguments` for an exec'd sibling with `--db URL` (or `--db=URL`) taken out, and the URL
  /// to put in its environment instead (nil when there was none).
  static func movingURLToEnvironment(_ arguments: [String]) -> (arguments: [String], url: String?) {
    var kept: [String] = []
    var url: String?
    var i = 0
    while i < arguments.count {
      let a = arguments[i]
      if a == "--" {
        kept += arguments[i...]
        break
      }
      if a == "--db", i + 1 < arguments.count {
        url = arguments[i + 1]
        i += 2
        continue
      }
      if a.hasPrefix("--db=") {
        url = String(a.dropFirst("--db=".count))
        i += 1
        continue
      }
      kept.append(a)
      i += 1
    }
    return (kept, url)
  }
}
