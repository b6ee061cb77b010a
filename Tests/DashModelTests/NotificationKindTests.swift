import Testing

@testable import DashModel
@testable import CoreValues

/// Notification types and subtypes are typed, but a name Apple adds next year must still load,
/// compare and be written back exactly as it came.
@Suite("Notification types and subtypes")
struct NotificationKindTests {
  func record(_ text: String) throws -> NotificationRecord {
    try NotificationRecord(ObjectReader(JSONParser.parse(Array(text.utf8)), at: .root))
  }

  @Test func aKnownTypeAndSubtypeReadAsTheirTypedNames() throws {
    let n = try record(#"{"notificationType":"DID_FAIL_TO_RENEW","subtype":"GRACE_PERIOD"}"#)
    #expect(n.notificationType == .didFailToRenew)
    #expect(n.subtype == .gracePeriod)
    #expect(n.notificationType.isKnown && n.subtype?.isKnown == true)
    #expect(n.label == "DID_FAIL_TO_RENEW / GRACE_PERIOD")
  }

  @Test func anUnknownTypeAndSubtypeLoadAndWriteBackByteForByte() throws {
    let text = #"{"notificationType":"SOMETHING_NEW","subtype":"EVEN_NEWER","notificationUUID":"u1"}"#
    let n = try record(text)
    #expect(!n.notificationType.isKnown)
    #expect(n.subtype?.isKnown == false)
    #expect(n.label == "SOMETHING_NEW / EVEN_NEWER")
    #expect(JSONWriter.string(n.json, pretty: false) == text)
  }

  @Test func everyKnownNameIsApplesOwnSpelling() {
    for (raw, name) in NotificationType.knownNames { #expect(raw == name && raw == raw.uppercased()) }
    for (raw, name) in NotificationSubtype.knownNames { #expect(raw == name && raw == raw.uppercased()) }
    // The names SubDash knows are exactly those in Apple's table of type and subtype pairs
    // (NotificationPairs, which Get Notification History checks filters against).
    #expect(Set(NotificationType.knownNames.keys) == Set(NotificationPairs.subtypes.keys))
    #expect(Set(NotificationSubtype.knownNames.keys) == Set(NotificationPairs.subtypes.values.flatMap { $0.compactMap { $0 } }))
    #expect(NotificationType.knownNames.count == 23)
    #expect(NotificationSubtype.knownNames.count == 19)
  }
}
