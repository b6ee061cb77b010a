import Foundation
import Testing
@testable import LocalAppStoreAPI

/// A paging token is exactly what `serve` issued (`r2`, `p2`): one written another way (`r+2`,
/// `r02`, `r-0`) is not one of ours and gets Apple's invalid-token error, never a page.
@Suite struct PagingTokenTests {
  static let history = "/sandbox/inApps/v2/history/\(ServeFixture.id)"

  @Test(arguments: ["r+2", "r02", "r-0", "r 2", "r2 ", "r", "2", "r٢", "r99999999999999999999"])
  func aRevisionNotWrittenAsServeWritesItIsRefused(_ token: String) async throws {
    let s = try ServeFixture(pageSize: 2)
    defer { s.remove() }
    let r = await s.get(Self.history, [("revision", token)])
    #expect(r.status == 400, "\(token): \(r.status)")
    #expect(ServeFixture.object(r)["errorCode"] as? Int == 4_000_005, "\(token)")
  }

  @Test func theRevisionServeIssuedStillPages() async throws {
    let s = try ServeFixture(pageSize: 2)
    defer { s.remove() }
    let first = ServeFixture.object(await s.get(Self.history))
    let revision = try #require(first["revision"] as? String)
    let next = await s.get(Self.history, [("revision", revision)])
    #expect(next.status == 200)
  }

  @Test(arguments: ["p+0", "p00", "p-0"])
  func aNotificationHistoryTokenWrittenAnotherWayIsRefused(_ token: String) async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let now = (Date().timeIntervalSince1970 * 1000).rounded(.down)
    let body = Array(try JSONSerialization.data(withJSONObject: ["startDate": now - 86_400_000, "endDate": now + 1]))
    let r = await s.api.respond(.init(method: "POST", path: "/sandbox/inApps/v1/notifications/history", query: [("paginationToken", token)],
                                      authorization: s.token(), body: body))
    #expect(r.status == 400, "\(token): \(r.status)")
    #expect(ServeFixture.object(r)["errorCode"] as? Int == 4_000_014, "\(token)")
  }
}
