import CoreValues
import DashModel
import SubscriberStorage
/// A state file's text with the places of some strings (ids, a token) found once, so each of N
/// subscribers' copies is one pass that puts its own values there, rather than a search of the
/// whole text per string per subscriber (the demo file is 17 KB with a dozen ids to replace).
public struct PopulationTemplate: Sendable {
  /// The text between the marked places; `slots[k]` is which value goes after `pieces[k]`.
  private var pieces: [Substring] = []
  private var slots: [Int] = []

  /// Marks every occurrence of each of `strings` (earlier strings win where two overlap).
  public init(_ text: String, marking strings: [String]) {
    var places: [(range: Range<String.Index>, slot: Int)] = []
    for (slot, s) in strings.enumerated() where !s.isEmpty {
      for r in text.ranges(of: s) where !places.contains(where: { $0.range.overlaps(r) }) { places.append((r, slot)) }
    }
    places.sort { $0.range.lowerBound < $1.range.lowerBound }
    var at = text.startIndex
    for p in places {
      pieces.append(text[at..<p.range.lowerBound])
      slots.append(p.slot)
      at = p.range.upperBound
    }
    pieces.append(text[at...])
  }

  /// The text with `values[k]` wherever `strings[k]` was.
  public func filled(_ values: [String]) -> String {
    var out = ""
    out.reserveCapacity(pieces.reduce(0) { $0 + $1.utf8.count } + slots.count * 40)
    for (k, slot) in slots.enumerated() {
      out += pieces[k]
      out += values[slot]
    }
    out += pieces[pieces.count - 1]
    return out
  }
}
