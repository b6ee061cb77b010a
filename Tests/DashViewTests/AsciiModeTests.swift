import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView

/// `--ascii` (and LANG=C) on every Example, in every mode: only ASCII bytes reach the terminal,
/// and every glyph has a spelling of its own, so no "?" stands in for a character the terminal
/// could not show (`3 ? 1 month`, `DID_CHANGE_RE? / AUTO_RENEW_DISABLED`, `? Premium`).
@Suite struct AsciiModeTests {
  static let sizes = [(80, 24), (120, 40), (200, 50), (40, 12), (30, 10)]

  /// Every overlay the keyboard can open on this subscriber, plus the main view.
  static func modes(_ vm: ViewModel) -> [(String, UIState)] {
    var out: [(String, UIState)] = [("browsing", UIState()), ("help", UIState(mode: .help(offset: 0)))]
    for keys in [["d"], ["u"], ["c"], ["w"], ["a"], ["r", "S", "P"], ["\n"]] {
      var ui = UIState()
      for k in keys { _ = reduce(&ui, .keyPressed(k == "\n" ? .enter : .char(Character(k))), context: vm) }
      if ui.mode != .browsing { out.append((keys.joined(), ui)) }
    }
    for kind in [PickerKind.upgrade, .downgrade, .crossgrade, .winBack] {
      let items = vm.advisor.targets(kind)
      if !items.isEmpty { out.append(("picker \(kind)", UIState(mode: .picking(Picker(kind: kind, items: items))))) }
    }
    return out
  }

  func questionMarks(_ text: String) -> Int { text.filter { $0 == "?" }.count }

  @Test(arguments: Scenarios.allNames)
  func everyExampleAndOverlayIsPlainASCII(_ name: String) {
    let scenario = Scenarios.named(name)
    let ascii = scenario.viewModel(options: DisplayOptions(ascii: true))
    let unicode = scenario.viewModel()
    for (mode, modeUI) in Self.modes(ascii) {
      let ui = scenario.ui(modeUI)
      for (w, h) in Self.sizes {
        let text = render(ascii, ui, width: w, height: h).textDump
        let bad = text.utf8.first { $0 >= 0x80 }
        #expect(bad == nil, "\(name) \(mode) \(w)x\(h): byte \(bad ?? 0)\n\(text)")
        // The same screen in Unicode has as many "?" (the help key): none was a glyph's stand-in.
        let reference = render(unicode, ui, width: w, height: h).textDump
        #expect(questionMarks(text) == questionMarks(reference), "\(name) \(mode) \(w)x\(h)\n\(text)")
      }
    }
  }

  /// `subdash show --ascii` prints the same words with the same spellings.
  @Test(arguments: Scenarios.allNames)
  func showReportIsPlainASCII(_ name: String) {
    let scenario = Scenarios.named(name)
    let lines = PlainReport.lines(scenario.viewModel(options: DisplayOptions(ascii: true)), ascii: true)
    let text = lines.joined(separator: "\n")
    #expect(text.utf8.allSatisfy { $0 < 0x80 }, "\(name)\n\(text)")
    let unicode = PlainReport.lines(scenario.viewModel(), ascii: false).joined(separator: "\n")
    #expect(questionMarks(text) == questionMarks(unicode), "\(name)\n\(text)")
  }

  @Test func offerLengthsAndSeparatorsHaveASCIISpellings() {
    #expect(AsciiFold.fold("3 × 1 month") == "3 x 1 month")
    #expect(AsciiFold.fold("DID_CHANGE_RE… / AUTO_RENEW_DISABLED") == "DID_CHANGE_RE... / AUTO_RENEW_DISABLED")
    #expect(AsciiFold.fold("● Premium — 4.99 USD · › ✖ ⚠") == "* Premium - 4.99 USD | > x !")
    #expect(AsciiFold.fold("DID_RENEW\u{1B}[2J") == "DID_RENEW^[[2J")
    #expect(AsciiFold.fold("Prämie") == "Pr?mie")
    let offer = render(Scenarios.example("offer-in-effect").viewModel(options: DisplayOptions(ascii: true)), UIState(), width: 120, height: 40)
    #expect(offer.textDump.contains("3 x 1 month"))
  }
}
