import Foundation
import Testing

@testable import DashModel
@testable import CoreValues

/// 2026-11-22T03:42:00Z, the running example in these tests.
let novemberMorning = Instant(ms: 1_795_318_920_000)

@Suite("Instant and Span")
struct TimeInstantTests {
  @Test func printsAsISO8601InUTC() {
    #expect(novemberMorning.description == "2026-11-22T03:42:00Z")
    #expect((novemberMorning + .ms(500)).description == "2026-11-22T03:42:00.500Z")
    #expect((novemberMorning + .ms(7)).description == "2026-11-22T03:42:00.007Z")
    #expect(Instant.epoch.description == "1970-01-01T00:00:00Z")
    #expect(Instant(ms: -1).description == "1969-12-31T23:59:59.999Z")
  }

  @Test func keepsXcodesFractionalMillisecondsExactly() throws {
    let xcodePurchase = Instant(ms: 1697679936049.7297)
    #expect(xcodePurchase.ms == 1697679936049.7297)
    #expect(xcodePurchase.description == "2023-10-19T01:45:36.0497297Z")
    #expect(try Format.parseDate(xcodePurchase.description) == xcodePurchase)
    #expect(((xcodePurchase + .day) - .day).ms == 1697679936049.7297)
  }

  @Test func serverPayloadMillisecondsStayWhole() {
    let purchase = Instant(ms: 1_698_148_900_000)
    #expect(purchase.ms == 1_698_148_900_000)
    #expect(purchase.description == "2023-10-24T12:01:40Z")
  }

  @Test func arithmeticWithSpans() {
    let expires = novemberMorning + .days(30)
    #expect(expires - novemberMorning == .days(30))
    #expect(novemberMorning - expires == -.days(30))
    #expect(expires - .days(30) == novemberMorning)
    var clock = novemberMorning
    clock += .hour
    clock -= .minute
    #expect(clock - novemberMorning == .minutes(59))
  }

  @Test func ordersAndHashesByMilliseconds() {
    let earlier = novemberMorning - .millisecond
    #expect(earlier < novemberMorning)
    #expect([novemberMorning, earlier].max() == novemberMorning)
    #expect(Set([novemberMorning, Instant(ms: 1_795_318_920_000), earlier]).count == 2)
  }

  @Test func spanConstantsAndArithmetic() {
    #expect(Span.second.ms == 1_000)
    #expect(Span.minute == .seconds(60))
    #expect(Span.hour == .minutes(60))
    #expect(Span.day == .hours(24))
    #expect(Span.week == .days(7))
    #expect(Span.hour / Span.minute == 60)
    #expect(Span.hour / 4 == .minutes(15))
    #expect(2 * Span.minute + .seconds(30) == .seconds(150))
    #expect(Span.zero < .millisecond)
    #expect(Span.minutes(90).seconds == 5_400)
  }

  @Test func spanPrintsInTheSyntaxParseSpanReads() throws {
    #expect(Span.minutes(90).description == "1h30m")
    #expect((Span.days(16)).description == "16d")
    #expect((Span.minutes(2) + .seconds(34)).description == "2m34s")
    #expect((Span.second + .ms(500)).description == "1s500ms")
    #expect(Span.zero.description == "0s")
    #expect((-Span.minutes(5)).description == "-5m")
    #expect(Span(ms: 0.5).description == "0.5ms")
    for span in [Span.minutes(90), .days(16), .weeks(2), .ms(1), .days(3) + .hours(2) + .seconds(1)] {
      #expect(try Format.parseSpan(span.description) == span)
    }
  }
}

extension Span {
  /// Test shorthand for a raw millisecond count.
  static func ms(_ n: Double) -> Span { Span(ms: n) }
}
