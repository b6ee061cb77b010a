import DashModel
import Foundation
import SubscriberStorage

/// A directory of N subscribers for the list benchmarks: the Examples' state files (every
/// lifecycle state) repeated with fresh ids, so each file is a real, loadable subscriber.
enum PopulationGenerator {
  /// Writes `count` state files (and the Examples' catalogs) into `dir` unless it already holds them.
  static func ensure(count: Int, in dir: String, examples: String) throws {
    let fm = FileManager.default
    try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let marker = "\(dir)/.generated-\(count)"
    if fm.fileExists(atPath: marker) { return }
    var templates: [(text: String, otid: String, token: String?)] = []
    for name in try fm.contentsOfDirectory(atPath: examples).sorted() {
      let path = "\(examples)/\(name)"
      if !name.hasSuffix(".json") {
        if !fm.fileExists(atPath: "\(dir)/\(name)") { try fm.copyItem(atPath: path, toPath: "\(dir)/\(name)") }
        continue
      }
      let state = try StateFile.load(path: path)
      guard let otid = state.subscriber.originalTransactionId, otid.count >= 12 else { continue }
      let token = state.subscriber.latestTransaction?.appAccountToken
      templates.append((try String(contentsOfFile: path, encoding: .utf8), otid, token))
    }
    for i in 0..<count {
      let t = templates[i % templates.count]
      let id = "3" + String(i).leftPadded(15)
      var text = t.text.replacingOccurrences(of: t.otid, with: id)
      if let token = t.token {
        text = text.replacingOccurrences(of: token, with: "00000000-0000-4000-8000-" + String(i).leftPadded(12))
      }
      try Data(text.utf8).write(to: URL(fileURLWithPath: "\(dir)/sub-\(String(i).leftPadded(6)).json"))
    }
    fm.createFile(atPath: marker, contents: nil)
  }
}

extension String {
  func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}
