import ArgumentParser
import DashModel
import Foundation
import CoreValues

struct Generate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write state files with N inline transactions and notifications, and bench.storekit beside them.")

  @OptionGroup var location: BenchDirectory
  @Option(help: "Comma-separated history sizes.")
  var sizes = "1,1000,10000,100000"

  func run() throws {
    for n in try parseSizes(sizes) {
      let path = try StateFiles.ensure(renewals: n, in: location.dir, regenerate: true)
      print("\(path)  \(Stats.bytes(StateFiles.size(path)))")
    }
  }
}

func parseSizes(_ text: String) throws -> [Int] {
  try text.split(separator: ",").map {
    guard let n = Int($0.trimmingCharacters(in: .whitespaces)), n >= 0 else { throw ValidationError("bad size \"\($0)\"") }
    return n
  }
}

enum StateFiles {
  static func path(renewals n: Int, in dir: String) -> String { "\(dir)/history-\(n).json" }

  /// Writes the file for `n` renewals unless it is already there.
  static func ensure(renewals n: Int, in dir: String, regenerate: Bool = false) throws -> String {
    let path = path(renewals: n, in: dir)
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let catalog = "\(dir)/\(HistoryGenerator.catalogName)"
    if !FileManager.default.fileExists(atPath: catalog) {
      try Data(HistoryGenerator.storekit.utf8).write(to: URL(fileURLWithPath: catalog))
    }
    if regenerate || !FileManager.default.fileExists(atPath: path) {
      let bytes = JSONWriter.write(HistoryGenerator(renewals: n).stateDocument())
      try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
    return path
  }

  static func size(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  }
}
