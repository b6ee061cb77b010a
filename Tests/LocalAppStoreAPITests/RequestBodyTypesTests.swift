import DashModel
import CoreValues
import Foundation
import Testing
@testable import LocalAppStoreAPI

/// A backend with a bug sends `true`, `1.9`, a string, a number past 64 bits or one key twice.
/// Apple refuses each with the field's error; SubDash used to read `true` and `1.9` as 1, keep
/// one of two equal keys silently, and echo 9223372036854775808 back as a negative number.
@Suite struct RequestBodyTypesTests {
  static let extend = "/sandbox/inApps/v1/subscriptions/extend/\(ServeFixture.id)"

  func put(_ s: ServeFixture, _ raw: String) async -> LocalAppStoreAPI.Response {
    await s.api.respond(.init(method: "PUT", path: Self.extend, authorization: s.token(), body: Array(raw.utf8)))
  }

  @Test(arguments: ["true", "1.9", "\"3\"", "7.0", "7e0", "9223372036854775808", "-9223372036854775809", "null"])
  func extendByDaysOfTheWrongTypeIs4000009AndNothingChanges(days: String) async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let before = try Data(contentsOf: URL(fileURLWithPath: s.path))
    let r = await put(s, #"{"extendByDays":\#(days),"extendReasonCode":1,"requestIdentifier":"r1"}"#)
    #expect(r.status == 400)
    #expect(ServeFixture.object(r)["errorCode"] as? Int == 4_000_009)
    #expect(!String(decoding: r.body, as: UTF8.self).contains("-9223372036854775808"), "a big number came back wrapped")
    #expect(try Data(contentsOf: URL(fileURLWithPath: s.path)) == before)
  }

  /// One 4000009, one form of words: a value of the wrong type and one out of range both read
  /// "Invalid extend by days value." (Apple's sentence), the range adding why; the command line's
  /// InvalidExtendByDaysError (4000009) never leaks into an API body.
  @Test(arguments: ["true", "0", "91"])
  func every4000009ReadsTheSame(days: String) async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let r = await put(s, #"{"extendByDays":\#(days),"extendReasonCode":1,"requestIdentifier":"m1"}"#)
    let message = ServeFixture.object(r)["errorMessage"] as? String ?? ""
    #expect(r.status == 400 && message.hasPrefix("Invalid extend by days value."), "\(message)")
    #expect(!message.contains("Error ("), "\(message)")
  }

  @Test func aFieldGivenTwiceIsThatFieldsError() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let twice = await put(s, #"{"extendByDays":1,"extendByDays":90,"extendReasonCode":1,"requestIdentifier":"r2"}"#)
    #expect(twice.status == 400 && ServeFixture.object(twice)["errorCode"] as? Int == 4_000_009)
    let reasonTwice = await put(s, #"{"extendByDays":1,"extendReasonCode":1,"extendReasonCode":2,"requestIdentifier":"r3"}"#)
    #expect(reasonTwice.status == 400 && ServeFixture.object(reasonTwice)["errorCode"] as? Int == 4_000_010)
  }

  @Test func aWellTypedBodyStillExtends() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let r = await put(s, #"{"extendByDays":7,"extendReasonCode":1,"requestIdentifier":"r4"}"#)
    #expect(r.status == 200)
  }

  @Test func notificationHistoryRefusesAFilterOfTheWrongTypeInsteadOfDroppingIt() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let now = Int64(s.now.timeIntervalSince1970 * 1000)
    let body = #"{"startDate":\#(now - 86_400_000),"endDate":\#(now),"transactionId":2000000871234560}"#
    let r = await s.api.respond(.init(method: "POST", path: "/sandbox/inApps/v1/notifications/history", authorization: s.token(), body: Array(body.utf8)))
    #expect(r.status == 400, "a numeric transactionId was ignored and every customer's notifications answered")
    let flag = #"{"startDate":\#(now - 86_400_000),"endDate":\#(now),"onlyFailures":"yes"}"#
    let f = await s.api.respond(.init(method: "POST", path: "/sandbox/inApps/v1/notifications/history", authorization: s.token(), body: Array(flag.utf8)))
    #expect(f.status == 400)
  }

  @Test(arguments: ["true", "50.5", "\"50\"", "100001", "99999999999999999999"])
  func aConsumptionPercentageOfTheWrongTypeIsRefused(value: String) throws {
    let body = #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"consumptionPercentage":\#(value)}"#
    #expect(throws: APIFailure.self) { try ConsumptionRequestBody.parse(Array(body.utf8)) }
  }

  @Test func theRequestBodyReaderKeepsWholeNumbersExact() throws {
    #expect(RequestBody.integer(.number("9223372036854775807")) == Int64.max)
    #expect(RequestBody.integer(.number("9223372036854775808")) == nil)
    #expect(RequestBody.integer(.number("1.9")) == nil)
    #expect(RequestBody.integer(.bool(true)) == nil)
    #expect(RequestBody.number(.number("1e308")) == 1e308)
    #expect(RequestBody.number(.string("5")) == nil)
  }
}

extension RequestBodyTypesTests {
  @Test func aWholeConsumptionPercentageIsTaken() throws {
    let body = #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"consumptionPercentage":50000}"#
    #expect(try ConsumptionRequestBody.parse(Array(body.utf8)).consumptionPercentage == 50_000)
  }
}
