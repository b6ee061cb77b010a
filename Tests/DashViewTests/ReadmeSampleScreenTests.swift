import Foundation
import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView

/// README's 80×24 sample is what the screen shows: the grace-period example with its whole
/// history read (the customer line included), as `subdash Examples/grace-period.json` draws it.
@Suite struct ReadmeSampleScreenTests {
  static let readme = Scenarios.examples.deletingLastPathComponent().appendingPathComponent("README.md")

  /// The first ```text block after the sentence that introduces the sample.
  static func sample() throws -> [String] {
    let text = try String(contentsOf: readme, encoding: .utf8)
    let intro = try #require(text.range(of: "A subscriber in the billing grace period (`Examples/grace-period.json`) at 80×24"))
    let open = try #require(text.range(of: "```text\n", range: intro.upperBound..<text.endIndex))
    let close = try #require(text.range(of: "\n```", range: open.upperBound..<text.endIndex))
    return text[open.upperBound..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  @Test func theSampleIsTheScreenAt80x24() throws {
    let scenario = Scenarios.grace
    var vm = StoryRenderTests.viewModel(scenario)
    vm.fileName = "Examples/grace-period.json"
    var ui = UIState()
    _ = reduce(&ui, .resized(width: 80, height: 24), context: vm)
    var frame = render(vm, ui, width: 80, height: 24)
    // The panel reports how many events it showed; the next frame uses it, as the runtime's does.
    _ = reduce(&ui, .laidOut(frame.extents), context: vm)
    frame = render(vm, ui, width: 80, height: 24)
    let screen = frame.textDump.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
      .map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
    var expected = try Self.sample()
    while expected.count < 24 { expected.append("") }
    #expect(Array(screen.prefix(24)) == expected)
  }
}
