import DashModel
import CoreValues
import Foundation
import Testing
@testable import LocalAppStoreAPI

/// A server for one app (--bundle-id) over a directory that also holds another app's customers:
/// a token for this app finds none of them, as Apple's TransactionIdNotFound (4040010), on every
/// endpoint, and no request writes into their files.
@Suite struct OtherAppTests {
  @Test func anotherAppsSubscriberIsNotFoundOnEveryEndpointAndNothingIsWritten() async throws {
    // The directory's subscriber is com.example.birdwatch's; the server answers com.example.otherapp.
    let s = try ServeFixture(now: Self.clock, bundleID: "com.example.otherapp")
    defer { s.remove() }
    try s.add(example: "grace-period")
    let before = try Data(contentsOf: URL(fileURLWithPath: s.path))
    let id = ServeFixture.id
    let sandbox = "/sandbox/inApps"
    let requests: [(String, String, String)] = [
      ("GET", "\(sandbox)/v1/transactions/\(id)", ""),
      ("GET", "\(sandbox)/v1/subscriptions/\(id)", ""),
      ("GET", "\(sandbox)/v1/history/\(id)", ""),
      ("GET", "\(sandbox)/v2/history/\(id)", ""),
      ("GET", "\(sandbox)/v2/refund/lookup/\(id)", ""),
      ("PUT", "\(sandbox)/v1/subscriptions/extend/\(id)", #"{"extendByDays": 3, "extendReasonCode": 1, "requestIdentifier": "r-1"}"#),
      ("PUT", "\(sandbox)/v1/transactions/\(id)/appAccountToken", #"{"appAccountToken": "5B0E8C1A-7D2F-4E3B-9A6C-1F0D2E3C4B5A"}"#),
      ("PUT", "\(sandbox)/v2/transactions/consumption/\(id)",
       #"{"customerConsented": true, "deliveryStatus": "DELIVERED", "sampleContentProvided": false, "consumptionPercentage": 25000, "refundPreference": "DECLINE"}"#),
      ("POST", "\(sandbox)/v1/notifications/history",
       #"{"startDate": \#(Self.window.start), "endDate": \#(Self.window.end), "transactionId": "\#(id)"}"#),
    ]
    for (method, path, body) in requests {
      let r = await s.api.respond(.init(method: method, path: path, authorization: s.token(), body: Array(body.utf8)))
      #expect(r.status == 404 && ServeFixture.object(r)["errorCode"] as? Int == 4_040_010, "\(method) \(path): \(r.status) \(r.log)")
    }
    // Without a transaction id, Get Notification History lists this app's notifications only.
    let all = await Self.allNotifications(s)
    #expect(all.status == 200 && (ServeFixture.object(all)["notificationHistory"] as? [Any])?.isEmpty == true, "\(all.status) \(all.log)")
    // A mass extension for the product extends none of the other app's subscribers.
    let mass = await s.send("POST", "\(sandbox)/v1/subscriptions/extend/mass", json: MassExtensionAPITests.request("other-app-1"))
    #expect(mass.status == 200)
    let status = try await MassExtensionAPITests.completed(s, "other-app-1")
    #expect(status["succeededCount"] as? Int == 0 && status["failedCount"] as? Int == 0, "\(status)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: s.path)) == before)
  }

  /// The files' clock (active.json's notifications fall in the 30 days before it).
  static let clock = Date(timeIntervalSince1970: 1_777_000_000)
  static let window = (start: Int64(1_777_000_000_000) - 29 * 86_400_000, end: Int64(1_777_000_000_000))

  static func allNotifications(_ s: ServeFixture) async -> LocalAppStoreAPI.Response {
    await s.api.respond(.init(method: "POST", path: "/sandbox/inApps/v1/notifications/history", authorization: s.token(),
                              body: Array(#"{"startDate": \#(window.start), "endDate": \#(window.end)}"#.utf8)))
  }

  /// The same requests for this app's own subscriber still find it.
  @Test func thisAppsSubscriberIsStillFound() async throws {
    let s = try ServeFixture(now: Self.clock)
    defer { s.remove() }
    let r = await s.get("/sandbox/inApps/v1/transactions/\(ServeFixture.id)")
    #expect(r.status == 200, "\(r.log)")
    let all = await Self.allNotifications(s)
    #expect(all.status == 200 && (ServeFixture.object(all)["notificationHistory"] as? [Any])?.isEmpty == false, "\(all.status) \(all.log)")
  }
}
