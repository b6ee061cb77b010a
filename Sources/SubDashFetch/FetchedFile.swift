import AppStoreAPI
import Foundation

/// The file `subdash fetch` writes: Apple's responses verbatim, plus how to refresh them (never the key).
///
///     {"fetchedFrom": {"api": "App Store Server API", "transactionId": …, "orderId": …, "environment": "Sandbox",
///                      "baseURL": …, "fetchedDate": <ms>},
///      "responses": [{"endpoint": "Get Transaction Info", "body": {…as Apple sent it…}}, …]}
enum FetchedFile {
  static func encode(_ result: FetchResult, baseURL: String?, fetchedAt: Date) -> [UInt8] {
    func string(_ s: String) -> String {
      let data = try! JSONSerialization.data(withJSONObject: [s], options: [.withoutEscapingSlashes])
      return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
    var out = "{\n  \"fetchedFrom\": {"
    out += "\"api\": \"App Store Server API\", \"transactionId\": \(string(result.transactionID))"
    if let order = result.orderID { out += ", \"orderId\": \(string(order))" }
    out += ", \"environment\": \(string(result.environment.displayName))"
    if let baseURL { out += ", \"baseURL\": \(string(baseURL))" }
    out += ", \"fetchedDate\": \(Int64(fetchedAt.timeIntervalSince1970 * 1000))},\n  \"responses\": ["
    out += result.responses.map { response in
      "\n    {\"endpoint\": \(string(response.endpoint)), \"body\": " + String(decoding: response.body, as: UTF8.self) + "}"
    }.joined(separator: ",")
    out += "\n  ]\n}\n"
    return Array(out.utf8)
  }
}
