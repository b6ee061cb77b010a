/// Why a dashboard changes nothing, in the words its refusals use: "read-only: upgrade disabled
/// (WHY)". Each reason says what is true of this session, and what to do when there is a way.
public enum ReadOnlyReason: Equatable, Sendable {
  /// `--read-only` on the command line.
  case asked
  /// App Store or RevenueCat data opened with `subdash INPUT`: imported in memory, so there is no
  /// state file for a key to write.
  case importedInMemory(input: String)
  /// This user may not write the file, or the directory its saves are renamed into:
  /// "cannot write a.json (permission)". Offering keys would have every one fail at the write.
  case notWritable(String)

  /// The reason after a refused key's name.
  public var why: String {
    switch self {
    case .asked: return "started with --read-only"
    case .importedInMemory(let input):
      return "imported in memory, a read-only view; to make a state file: subdash import \(Sanitizer.clean(input)) -o FILE"
    case .notWritable(let what): return Sanitizer.clean(what)
    }
  }

  /// The status line while nothing else is said.
  public var sessionLine: String {
    switch self {
    case .asked: return "read-only session: keys that change the file are disabled"
    case .importedInMemory, .notWritable: return "read-only: \(why)"
    }
  }
}
