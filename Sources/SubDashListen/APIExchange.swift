import DashModel
import Foundation
import HTTPTypes
import Hummingbird
import LocalAppStoreAPI
import NIOCore
import CoreValues

/// How `serve` hands an HTTP request to the App Store Server API and writes its answer back; the
/// fetch tests serve the API through the same code.
enum APIExchange {
  /// An App Store Server API request: bodies are small JSON objects.
  static let bodyLimit = 64 << 10

  static func answer(_ api: LocalAppStoreAPI, _ request: Request, log: (String) -> Void) async -> Response {
    var request = request
    let body: ByteBuffer
    do { body = try await request.collectBody(upTo: bodyLimit) } catch {
      log("413 \(request.method) \(LogText.clip(request.uri.path, limit: 120)): body over 64 KiB")
      return Response(status: .contentTooLarge)
    }
    let query = request.uri.queryParameters.map { (String($0.key), String($0.value)) }
    let answer = await api.respond(.init(method: request.method.rawValue, path: request.uri.path, query: query,
                                         authorization: request.headers[.authorization], body: Array(buffer: body)))
    log("api: " + answer.log)
    var headers: HTTPFields = answer.body.isEmpty ? [:] : [.contentType: "application/json"]
    if let retry = answer.retryAfter { headers[.retryAfter] = String(retry) }
    return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
  }
}
