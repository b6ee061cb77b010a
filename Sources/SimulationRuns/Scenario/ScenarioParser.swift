import FoundationEssentials
import CoreValues
import DashModel
import SubscriberStorage

/// A script line that could not be read: `refund.scenario:7: unknown step "refnd"`.
public struct ScenarioSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  public var fileName: String
  public var line: Int
  public var message: String
  public var description: String { "\(fileName):\(line): \(message)" }
}

/// Reads the scenario text format. One step per line; `#` starts a comment; keywords are case
/// insensitive, product ids, codes and offer ids are taken as written; `"quotes"` group words.
public enum ScenarioParser {
  public static func parse(_ text: String, fileName: String) throws(ScenarioSyntaxError) -> Scenario {
    var lines: [ScenarioLine] = []
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let number = index + 1
      let lineText = raw.trimmedSpaces
      do throws(SimTextError) {
        let words = try tokenize(lineText)
        if words.isEmpty { continue }
        for step in try steps(words) {
          lines.append(ScenarioLine(number: number, text: lineText, step: step))
        }
      } catch {
        throw ScenarioSyntaxError(fileName: fileName, line: number, message: error.message)
      }
    }
    return Scenario(fileName: fileName, lines: lines)
  }

  /// Splits on blanks, keeps `"quoted words"` together and drops a `#` comment.
  static func tokenize(_ line: String) throws(SimTextError) -> [String] {
    var words: [String] = []
    var current = ""
    var quoted = false
    var hasWord = false
    for c in line {
      if quoted {
        if c == "\"" { quoted = false } else { current.append(c) }
        continue
      }
      if c == "#" { break }
      if c == "\"" { quoted = true; hasWord = true; continue }
      if c == " " || c == "\t" {
        if hasWord { words.append(current); current = ""; hasWord = false }
        continue
      }
      if c.isASCII, let v = c.asciiValue, v < 0x20 { throw SimTextError("control character in the line") }
      current.append(c)
      hasWord = true
    }
    if quoted { throw SimTextError("unterminated \"quote\"") }
    if hasWord { words.append(current) }
    return words
  }

  /// The steps one line means, read by the verb its first word names (`ScenarioVerbs.table`).
  static func steps(_ words: [String]) throws(SimTextError) -> [ScenarioStep] {
    let line = ScenarioWords(words)
    guard let verb = line.keys.first else { return [] }
    guard let read = ScenarioVerbs.table[verb] else {
      throw SimTextError("unknown step \"\(words[0])\" (see docs/simulation.md for the steps)")
    }
    return try read(line)
  }

  static func setting(_ w: [String]) throws(SimTextError) -> SettingChange {
    let k = w.map { $0.lowercased() }
    let usage = "set rate|grace|seed|outcomes|fail renewals|failure rate|ask to buy|renewal cap|environment …"
    guard !w.isEmpty else { throw SimTextError("expected \(usage)") }
    func value(_ from: Int) throws(SimTextError) -> String {
      guard w.count > from else { throw SimTextError("expected a value after set \(k[..<from].joined(separator: " "))") }
      return w[from...].joined(separator: " ")
    }
    func onOff(_ text: String) throws(SimTextError) -> Bool {
      guard let value = ScenarioWords.onOff(text) else { throw SimTextError("expected on or off, found \"\(text)\"") }
      return value
    }
    switch k[0] {
    case "rate", "timerate":
      let name = try value(1)
      do { _ = try SimulationRate(parsing: name) } catch { throw SimTextError(error.description) }
      return .rate(name)
    case "grace":
      if k.count >= 2, k[1] == "renewals" {
        switch try value(2).lowercased() {
        case "all", "all_renewals": return .graceRenewalType(.allRenewals)
        case "paid-to-paid", "paid to paid", "paid_to_paid_only", "paid-to-paid only": return .graceRenewalType(.paidToPaidOnly)
        default: throw SimTextError("expected set grace renewals all|paid-to-paid")
        }
      }
      return .grace(try GraceSetting(parsing: try value(1)))
    case "seed":
      guard w.count == 2, let n = UInt64(w[1]) else { throw SimTextError("expected set seed <non-negative integer>") }
      return .seed(n)
    case "outcomes":
      let list = try value(1).split(separator: ",").map { String($0) }
      var out: [RenewalOutcome] = []
      for item in list { out.append(try RenewalOutcome(parsing: item)) }
      return .outcomes(out)
    case "fail":
      guard k.count >= 2, k[1] == "renewals" else { throw SimTextError("expected set fail renewals on|off") }
      return .failRenewals(try onOff(try value(2)))
    case "failure":
      guard k.count == 3, k[1] == "rate", let f = Double(w[2]), (0...1).contains(f) else {
        throw SimTextError("expected set failure rate <0…1>")
      }
      return .failureRate(f)
    case "ask":
      guard k.count >= 3, k[1] == "to", k[2] == "buy" else { throw SimTextError("expected set ask to buy on|off") }
      return .askToBuy(try onOff(try value(3)))
    case "renewal":
      guard k.count == 3, k[1] == "cap" else { throw SimTextError("expected set renewal cap on|off|<n>") }
      if let n = Int(w[2]), n >= 0 { return .renewalCap(.count(n)) }
      return .renewalCap(try onOff(w[2]) ? .on : .off)
    case "environment":
      let e = AppStoreEnvironment(rawValue: try value(1))
      guard e.isKnown else { throw SimTextError("expected Sandbox, Xcode or LocalTesting") }
      guard e != .production else { throw SimTextError("simulation never writes Production data") }
      return .environment(e)
    default:
      throw SimTextError("unknown setting \"\(w[0])\"; expected \(usage)")
    }
  }

  static func date(_ text: String) throws(SimTextError) -> Instant {
    do { return try Format.parseDate(text) } catch { throw SimTextError(error.description) }
  }
}
