import Foundation
import Testing

/// `subdash show` must start in a fraction of `jq .`'s time. Importing the full Foundation in any
/// target the executable links loads Foundation, FoundationInternationalization and ICU at start-up
/// and made `show` 40 % slower (docs/benchmarks-dashboard.md §5); FoundationEssentials has what
/// the program needs.
@Suite struct StartupLinkageTests {
  @Test func theExecutablesTargetsImportOnlyFoundationEssentials() throws {
    let root = DemoStateTests.repoRoot.appendingPathComponent("Sources")
    var offenders: [String] = []
    for target in ["DashModel", "DashView", "DashRuntime", "SubDash"] {
      let dir = root.appendingPathComponent(target)
      let files = FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String } ?? []
      #expect(!files.isEmpty, "no sources found under \(dir.path)")
      for file in files where file.hasSuffix(".swift") {
        let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
        for line in text.split(separator: "\n") {
          let words = line.split(separator: " ")
          if let i = words.firstIndex(of: "import"), i + 1 < words.count, words[i + 1] == "Foundation",
             words[..<i].allSatisfy({ ["@_exported", "public", "internal", "package", "@preconcurrency"].contains($0) }) {
            offenders.append("\(target)/\(file): \(line)")
          }
        }
      }
    }
    #expect(offenders.isEmpty, "import FoundationEssentials instead: \(offenders)")
  }
}
