/// One line each, naming the file, the subscriber or the database (never its password).
public enum DatabaseError: Error, CustomStringConvertible, Equatable {
  /// What was typed: a bad URL, a missing directory.
  case usage(String)
  /// A file that cannot be stored as it is (unreadable, not a state file, a catalog outside the directory).
  case file(String)
  /// The server refused or could not be reached.
  case server(String)
  /// Another writer held the subscriber's lock longer than `SubscriberDatabase.lockWait`; nothing
  /// was changed, and the same change later may succeed (a receiver answers 503).
  case busy(String)
  /// A row changed between a writer reading it and storing over it (`db import` while a
  /// `listen --db` applied a notification): nothing was stored, so that change is not lost.
  case changed(String)

  public var description: String {
    switch self {
    case .usage(let m), .file(let m), .server(let m), .busy(let m), .changed(let m): return m
    }
  }

  /// 64 for the command line, 2 for a file, 1 for the server, 75 (EX_TEMPFAIL: try again) when
  /// busy or changed underneath.
  public var exitCode: Int32 {
    switch self {
    case .usage: return 64
    case .file: return 2
    case .server: return 1
    case .busy, .changed: return 75
    }
  }
}
