import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// The lines `subdash` and `subdash-db mirror` exchange are read back into the same values they
/// were written from, and anything else is no answer at all (not an English word to match).
@Suite struct MirrorProtocolTests {
  @Test func everyRequestAndReplyReadsBackAsItWasWritten() {
    for request in [MirrorRequest.write(name: "2000000123.json", scratch: "/tmp/subdash-row-x"), .commit, .commitFollowingFamily, .abort] {
      #expect(MirrorRequest(line: request.line) == request)
    }
    for reply in [MirrorReply.ready(count: 1, directory: "/tmp/subdash-db-a"), .ready(count: 12, directory: "/tmp/d"), .locked, .stored, .unchanged,
                  .error("2000000123.json is not in the database"),
                  .member(FamilyExtension.MemberOutcome(name: "member 1.json", message: "Family Monthly extended", skipped: nil)),
                  .member(FamilyExtension.MemberOutcome(name: "m.json", message: nil, skipped: "the family member has no active access to extend"))] {
      #expect(MirrorReply(line: reply.line) == reply)
    }
    #expect(MirrorReply.ready(count: 1, directory: "/d").line == "ready: 1 subscriber in /d")
  }

  @Test func linesThatAreNotTheProtocolAreNotAnswers() {
    for line in ["", "stored ", "Locked", "ready:", "ready: many subscribers in /d", "ready: -1 subscribers in /d", "error:nothing", "storedx",
                 "member: m.json", "member: \tfollowed: x", "member: m.json\tfollowed x", "member: m.json\textended: x"] {
      #expect(MirrorReply(line: line) == nil, "\(line)")
    }
    for line in ["", "write", "write a", "commit ", "write  /tmp"] {
      #expect(MirrorRequest(line: line) == nil, "\(line)")
    }
    // A newline in a reason cannot split one answer into two.
    #expect(MirrorReply.error("two\nlines").line == "error: two lines")
    #expect(MirrorReply.member(FamilyExtension.MemberOutcome(name: "m.json", message: "a\nb\tc", skipped: nil)).line == "member: m.json\tfollowed: a b c")
  }
}
