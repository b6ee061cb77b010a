import AsyncHTTPClient
import Foundation
import Testing

@testable import AppStoreAPI

/// A server that is not there: the reason is told from the error's type and errno, not from the
/// words of its description (which are the C library's and NIO's, and not ours to parse).
@Suite(.timeLimit(.minutes(1))) struct ConnectionRefusedTests {
  @Test func aClosedLoopbackPortIsConnectionRefused() async throws {
    // Port 1 on loopback: nothing listens there on a test machine.
    var request = HTTPClientRequest(url: "http://127.0.0.1:1/")
    request.method = .GET
    var caught: Error?
    do { _ = try await HTTPClient.shared.execute(request, timeout: .seconds(5)) } catch { caught = error }
    let error = try #require(caught)
    #expect(AppStoreClient.isConnectionRefused(error), "\(type(of: error)): \(error)")
    #expect(AppStoreClient.networkReason(error) == "connection refused")
  }
}
