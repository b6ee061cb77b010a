import Foundation
import Testing

/// docs/architecture.md is the first page a contributor reads, so what it names must exist: every
/// path and type it names in backticks, and every target in its rooms table. A file moved, a type
/// renamed or a target split fails here, naming what the page still calls it, instead of leaving
/// the page quietly wrong. Fenced code blocks (the picture, shell commands) are not read: only
/// inline code.
@Suite struct ArchitectureDocTests {
  static let root = DemoStateTests.repoRoot

  /// Names in backticks that look like types but are not ours: Foundation's and the standard
  /// library's, named where the page says what the test tools write files with.
  static let notOurTypes: Set<String> = ["Data", "FileManager", "String"]

  static func page() throws -> String {
    try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
  }

  /// The page's inline code spans, outside fenced blocks, in order.
  static func codeSpans(_ text: String) -> [String] {
    var spans: [String] = []
    var fenced = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
        fenced.toggle()
        continue
      }
      if fenced { continue }
      let parts = line.split(separator: "`", omittingEmptySubsequences: false)
      spans += stride(from: 1, to: parts.count, by: 2).map { String(parts[$0]) }
    }
    return spans
  }

  /// A span that names a file or folder of the repository: it has a `/` or ends as a source, a
  /// script or a page does. nil: not a path. Empty: a path, but not one in the repository (absolute,
  /// in the home or an environment variable, above the checkout, a placeholder such as `<name>`,
  /// a hidden file's name or a bare extension). A `:line` at the end is dropped.
  static func repositoryPath(_ span: String) -> String? {
    guard span.contains("/") || [".swift", ".md", ".sh", ".c", ".h"].contains(where: span.hasSuffix) else { return nil }
    if span.hasPrefix(".") && !span.contains("/") { return "" }
    if ["/", "~", "$", "../", "http"].contains(where: span.hasPrefix) || span.contains("://")
      || span.contains(where: { "<>*…$ ".contains($0) }) {
      return ""
    }
    if let colon = span.lastIndex(of: ":") {
      let line = span[span.index(after: colon)...]
      if !line.isEmpty && line.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) { return String(span[..<colon]) }
    }
    return span
  }

  /// The repository root, `Sources/` and `docs/`, in that order; a bare file name may also be
  /// anywhere under `Sources/`, `Tests/`, `docs/` or `scripts/`.
  static func exists(_ path: String) -> Bool {
    let fm = FileManager.default
    for base in ["", "Sources/", "docs/"] where fm.fileExists(atPath: root.appendingPathComponent(base + path).path) { return true }
    guard !path.contains("/") else { return false }
    for top in ["Sources", "Tests", "docs", "scripts"] {
      let files = fm.enumerator(atPath: root.appendingPathComponent(top).path)?.compactMap { $0 as? String } ?? []
      if files.contains(where: { $0 == path || $0.hasSuffix("/" + path) }) { return true }
    }
    return false
  }

  /// The type a span names: an UpperCamelCase identifier (with a lowercase letter, so `SIGKILL`
  /// and `F_OFD_SETLK` are not types), then any `.member`s and at most one call's parentheses at
  /// the end: `SubscriberStore`, `SubscriberStore.update`, `SubscriberStore.update(name, change)`.
  static func typeName(_ span: String) -> String? {
    func isIdentifier(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c.isNumber || c == "_") }
    let head = span.prefix { $0.isASCII && ($0.isLetter || $0.isNumber) }
    guard let first = head.first, first.isUppercase, head.contains(where: \.isLowercase) else { return nil }
    var rest = span.dropFirst(head.count)
    while rest.hasPrefix(".") {
      let member = rest.dropFirst().prefix(while: isIdentifier)
      guard let start = member.first, start.isLetter || start == "_" else { return nil }
      rest = rest.dropFirst(1 + member.count)
    }
    return rest.isEmpty || (rest.hasPrefix("(") && rest.hasSuffix(")")) ? String(head) : nil
  }

  /// The targets of Package.swift: every `name: "…"` but a product's.
  static func packageTargets() throws -> Set<String> {
    let package = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    let pieces = package.components(separatedBy: "name: \"")
    return Set(zip(pieces, pieces.dropFirst()).compactMap { before, after in
      before.hasSuffix("product(") ? nil : after.split(separator: "\"", maxSplits: 1).first.map(String.init)
    })
  }

  /// Every name declared by `struct`, `enum`, `class`, `protocol`, `actor`, `typealias` or
  /// `extension` in the Swift files of `Sources/` and `Tests/` (test suites are named too).
  static func declaredTypes() throws -> Set<String> {
    let keywords: Set<Substring> = ["struct", "enum", "class", "protocol", "actor", "typealias", "extension"]
    var declared: Set<String> = []
    for top in ["Sources", "Tests"] {
      let dir = root.appendingPathComponent(top)
      let files = FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String } ?? []
      for file in files where file.hasSuffix(".swift") {
        let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
        let words = text.split { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_")) }
        for (word, next) in zip(words, words.dropFirst()) where keywords.contains(word) { declared.insert(String(next)) }
      }
    }
    return declared
  }

  @Test func everyPathItNamesExists() throws {
    let paths = Self.codeSpans(try Self.page()).compactMap(Self.repositoryPath).filter { !$0.isEmpty }
    #expect(paths.count > 50, "docs/architecture.md names too few paths for this check to mean anything: \(paths)")
    let missing = Array(Set(paths.filter { !Self.exists($0) })).sorted()
    #expect(missing.isEmpty, "docs/architecture.md names paths that are not in the repository (tried from the root, Sources/ and docs/): \(missing)")
  }

  @Test func everyTargetInItsRoomsTableIsInThePackage() throws {
    let page = try Self.page()
    let parts = page.components(separatedBy: "\n## The rooms")
    try #require(parts.count == 2, "docs/architecture.md has no single \"## The rooms\" section")
    let section = parts[1].components(separatedBy: "\n## ")[0]
    let rows = section.split(separator: "\n").filter { $0.hasPrefix("|") }.dropFirst(2)  // the header and its rule
    let named = rows.flatMap { row in Self.codeSpans(String(row.split(separator: "|", omittingEmptySubsequences: false)[1])) }
    #expect(named.count >= 20, "the rooms table names too few targets: \(named)")
    let targets = try Self.packageTargets()
    let missing = named.filter { !targets.contains($0) }
    #expect(missing.isEmpty, "docs/architecture.md's rooms table names targets Package.swift does not declare: \(missing)")
  }

  @Test func everyTypeItNamesIsDeclared() throws {
    let spans = Self.codeSpans(try Self.page()).filter { Self.repositoryPath($0) == nil }
    let types = spans.compactMap { span in Self.typeName(span).map { (span, $0) } }
    #expect(types.count > 50, "docs/architecture.md names too few types for this check to mean anything")
    let known = try Self.declaredTypes().union(Self.packageTargets()).union(Self.notOurTypes)
    let missing = Array(Set(types.filter { !known.contains($0.1) }.map { $0.0 })).sorted()
    #expect(missing.isEmpty, "docs/architecture.md names types that nothing in Sources/ or Tests/ declares (nor a target of Package.swift): \(missing)")
  }
}
