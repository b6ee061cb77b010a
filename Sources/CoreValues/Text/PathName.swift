/// The two halves of a path, as text (no file system access): what `dirname` and `basename`
/// give for the paths SubDash is handed.
public enum PathName {
  /// "." for a bare name, "/" for a file at the root.
  public static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let d = String(path[..<slash])
    return d.isEmpty ? "/" : d
  }

  public static func fileName(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }
}
