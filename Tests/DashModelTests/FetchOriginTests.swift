import Testing
@testable import DashModel
@testable import CoreValues

/// `fetchedFrom` in a state document: read back as written, hand edits never crash, unknown keys survive.
@Suite struct FetchOriginTests {
  func document(_ fetchedFrom: String) throws -> StateDocument {
    let bytes = Array(#"{"subscriber":{},"catalog":{"subscriptionGroups":[]},"fetchedFrom":\#(fetchedFrom)}"#.utf8)
    return try StateDocument(ObjectReader(JSONParser.parse(bytes), at: .root))
  }

  @Test func roundTripKeepsUnknownKeys() throws {
    var doc = try document(#"{"transactionId":"1","environment":"Sandbox","fetchedDate":5,"future":true}"#)
    let origin = FetchOrigin(transactionId: "2000000500", orderId: "MK5", environment: "Production", baseURL: nil, fetchedDate: Instant(ms: 7))
    origin.write(into: &doc)
    #expect(FetchOrigin(document: doc) == origin)
    #expect(doc.source["fetchedFrom"]?.objectValue?["future"] == .bool(true))
  }

  @Test func handEditsAreIgnoredNotFatal() throws {
    #expect(FetchOrigin(document: try document(#"{"transactionId":"1","environment":"Sandbox","fetchedDate":1e999}"#))?.fetchedDate == Instant(ms: 0))
    #expect(FetchOrigin(document: try document(#"{"transactionId":"1","environment":"Xcode"}"#)) == nil)
    #expect(FetchOrigin(document: try document(#"{"transactionId":"","environment":"Sandbox"}"#)) == nil)
    #expect(FetchOrigin(document: try document(#""text""#)) == nil)
  }
}
