import DashModel
import CoreValues

extension StateFileError {
  /// The error naming the file as the user typed it (`../tickets/a.json:3:18: …`). The model
  /// names a state file by its last component (a list row, a lock message), which on the command
  /// line loses the directory the user gave; an error about another file (its catalog, its
  /// journal) keeps its own name.
  func naming(_ typed: String) -> StateFileError {
    guard file == PathName.fileName(of: typed), file != typed else { return self }
    var named = self
    named.file = typed
    return named
  }
}
