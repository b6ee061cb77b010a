import DashModel
import CoreValues
/// The line protocol between `subdash` and the `subdash-db mirror` child that keeps a directory in
/// step with the team database (DatabaseMirror in DashRuntime, RowWrites in SubDashDB). Both ends
/// write and read lines only through these two types, so neither branches on a message's words.
///
///     → write NAME SCRATCH     lock the row, lay its latest state out in SCRATCH
///     ← locked                 the dashboard applies its key to SCRATCH/NAME
///     → commit | abort
///     ← stored | unchanged     the row holds SCRATCH/NAME now (or was left as it was)
///     ← error: WHY             at any step; the row is unchanged
///
/// `commit family` instead of `commit` when the key extended a purchaser's renewal date: once the
/// row is stored, the child extends the purchaser's family members (each its own locked write of
/// the store, FamilyExtension) and says each one's outcome (`member: NAME<TAB>…`) before `stored`.
///
/// The first line the child prints is `ready: N subscribers in DIR` once the export is written.
public enum MirrorRequest: Equatable, Sendable {
  case write(name: String, scratch: String)
  case commit
  /// Commit, then let the purchaser's family members follow its extension.
  case commitFollowingFamily
  case abort

  public var line: String {
    switch self {
    case .write(let name, let scratch): return "write \(name) \(scratch)"
    case .commit: return "commit"
    case .commitFollowingFamily: return "commit family"
    case .abort: return "abort"
    }
  }

  /// nil for a line that is none of the three (or a name with a space, which `write` cannot carry).
  public init?(line: String) {
    switch line {
    case "commit": self = .commit
    case "commit family": self = .commitFollowingFamily
    case "abort": self = .abort
    default:
      let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
      guard words.count == 3, words[0] == "write", !words[1].isEmpty, !words[2].isEmpty else { return nil }
      self = .write(name: words[1], scratch: words[2])
    }
  }
}

public enum MirrorReply: Equatable, Sendable {
  /// The first export is written: `count` subscribers in `directory`.
  case ready(count: Int, directory: String)
  case locked
  case stored
  case unchanged
  /// A refusal or failure, one line; the row is unchanged.
  case error(String)
  /// After `commit family`, before `stored`: one family member's outcome.
  case member(FamilyExtension.MemberOutcome)

  public var line: String {
    switch self {
    case .ready(let count, let directory): return "ready: \(counted(count, "subscriber")) in \(directory)"
    case .locked: return "locked"
    case .stored: return "stored"
    case .unchanged: return "unchanged"
    case .error(let why): return "error: " + Self.oneLine(why)
    case .member(let m):
      // A name has no control characters (a plain file name), so the tab ends it.
      let said = m.message.map { "followed: " + Self.oneLine($0) } ?? "not followed: " + Self.oneLine(m.skipped ?? "?")
      return "member: " + Self.oneLine(m.name) + "\t" + said
    }
  }

  private static func oneLine(_ text: String) -> String {
    String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\t" ? " " : $0 })
  }

  /// nil for a line that is none of these.
  public init?(line: String) {
    switch line {
    case "locked": self = .locked
    case "stored": self = .stored
    case "unchanged": self = .unchanged
    default:
      if line.hasPrefix("error: ") {
        self = .error(String(line.dropFirst("error: ".count)))
        return
      }
      if line.hasPrefix("member: ") {
        let parts = line.dropFirst("member: ".count).split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return nil }
        let name = String(parts[0]), said = parts[1]
        if said.hasPrefix("followed: ") {
          self = .member(FamilyExtension.MemberOutcome(name: name, message: String(said.dropFirst("followed: ".count)), skipped: nil))
        } else if said.hasPrefix("not followed: ") {
          self = .member(FamilyExtension.MemberOutcome(name: name, message: nil, skipped: String(said.dropFirst("not followed: ".count))))
        } else {
          return nil
        }
        return
      }
      // "ready: N subscriber(s) in DIR"
      let words = line.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false)
      guard words.count == 5, words[0] == "ready:", let n = Int(words[1]), n >= 0,
            words[2] == "subscriber" || words[2] == "subscribers", words[3] == "in" else { return nil }
      self = .ready(count: n, directory: String(words[4]))
    }
  }
}
